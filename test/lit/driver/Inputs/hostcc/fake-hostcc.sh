#!/bin/sh
# A stand-in for nvcc's host compiler in driver/host-compiler-includes.test:
# answers `-E -x c++ - -v` as gcc does, with a search list of include/
# beside it and the system's folders, and logs each call to $FAKE_HOSTCC_LOG.
[ -n "$FAKE_HOSTCC_LOG" ] && echo "$*" >> "$FAKE_HOSTCC_LOG"
here=$(cd "$(dirname "$0")" && pwd)
echo '#include "..." search starts here:' >&2
echo '#include <...> search starts here:' >&2
echo " $here/include" >&2
echo ' /usr/include' >&2
echo 'End of search list.' >&2
