/* Saves decisions to a wisdom file as the tuning runtime does after tuning
 * (runtime/src/wisdom.h), without a GPU:
 *   wisdom-writer PATH WRITER N
 * saves N decisions, one save each, under keys whose kernel is
 * "w<WRITER>_<i>" (i from 1 to N), the others fields made up. */
#include "wisdom.h"

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: wisdom-writer PATH WRITER N\n");
    return 2;
  }
  int n = std::atoi(argv[3]);
  for (int i = 1; i <= n; i++) {
    std::string key = "w" + std::string(argv[2]) + "_" + std::to_string(i) +
                      "\t0123456789abcdef\t1024,1,1\t256,1,1\t0\tFake GPU\t132";
    tfuse_wisdom::Decision d = {"block.x:" + std::to_string(1 << (i % 4)), 0.5 + i, 1.0 + i};
    std::string why;
    if (!tfuse_wisdom::save(argv[1], key, d, &why)) {
      std::fprintf(stderr, "wisdom-writer: %s\n", why.c_str());
      return 1;
    }
  }
  return 0;
}
