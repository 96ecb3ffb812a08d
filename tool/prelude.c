/* The text of runtime/include/tfuse/prelude.h, embedded at build time. */
#include "tfuse.h"

const char tfuse_prelude_text[] =
#include "prelude.inc"
    ;
