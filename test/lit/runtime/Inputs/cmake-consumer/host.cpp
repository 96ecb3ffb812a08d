// A C++ target that only asks whether checking is on.
#include <tfuse/check.h>

#include <cstdio>

int main() {
  std::printf("check_on %d\n", (int)tfuse_rt::check_on());
  return 0;
}
