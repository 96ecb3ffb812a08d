#ifndef SCALE
#error "SCALE is not defined: -D did not reach the parser"
#endif
