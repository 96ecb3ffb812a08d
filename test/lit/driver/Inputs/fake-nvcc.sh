#!/bin/sh
# A stand-in for nvcc in driver/nvcc-query.test, installed as bin/nvcc of a
# CUDA folder whose include/ is the real one: it answers --dryrun in nvcc
# 13's format with made-up version macros, dialect and system folder
# (extra/), logs each call to $FAKE_NVCC_LOG, and rejects -fPIC as nvcc does.
# Its host compiler is gcc, or $FAKE_NVCC_HOSTCC.
[ -n "$FAKE_NVCC_LOG" ] && echo "$*" >> "$FAKE_NVCC_LOG"
here=$(cd "$(dirname "$0")/.." && pwd)
for a in "$@"; do
  case "$a" in
  -fPIC) echo "nvcc fatal   : Unknown option '-fPIC'"; exit 1 ;;
  esac
done
echo '#$ _NVVM_BRANCH_=nvvm'
echo '#$ INCLUDES="-I'"$here"'/bin/../include"  '
echo '#$ SYSTEM_INCLUDES="-isystem" "'"$here"'/bin/../extra"  '
echo '#$ '"${FAKE_NVCC_HOSTCC:-gcc}"' -D__CUDA_ARCH_LIST__=520 -E -x c++ -D__CUDACC__ -D__NVCC__  "-I'"$here"'/bin/../include"   "-isystem" "'"$here"'/bin/../extra"    -D__CUDACC_VER_MAJOR__=99 -D__CUDACC_VER_MINOR__=1 -D__CUDACC_VER_BUILD__=2 -D "FAKE_STRING=\"a b,c\"" -include "cuda_runtime.h" -m64 "tfuse-probe.cu" -o "/tmp/tmpxft-5_tfuse-probe.cpp4.ii" '
echo '#$ cudafe++ --c++14 --static-host-stub --orig_src_file_name "tfuse-probe.cu" "/tmp/tmpxft-5_tfuse-probe.cpp4.ii" '
echo '#$ gcc -D__CUDA_ARCH__=520 -D__CUDA_ARCH_LIST__=520 -E -x c++ -D__CUDACC__ -D__NVCC__ -D__CUDACC_VER_MAJOR__=98 "tfuse-probe.cu"'
