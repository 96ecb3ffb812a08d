// Prints the PTX that runtime/src/compare_ptx.h embeds (for compare-ptx.test).
#include <cstdio>

#include "compare_ptx.h"

int main() {
  std::fputs(tfuse_compare_ptx, stdout);
  return 0;
}
