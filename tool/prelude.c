/* The texts of runtime/include/tfuse/prelude.h and check.h, embedded at
 * build time. */
#include "tfuse.h"

const char tfuse_prelude_text[] =
#include "prelude.inc"
    ;

const char tfuse_check_header_text[] =
#include "check.inc"
    ;

const char tfuse_tune_header_text[] =
#include "tune.inc"
    ;
