// -factor auto: launches in a host template.  A launch whose kernel depends
// on the template's parameters (deduced, or named with them) is routed, and
// its site carries the enclosing function's __PRETTY_FUNCTION__: each
// instantiation of the host template launches another instantiation of the
// kernel and gets its own key, tuned and kept in the wisdom file apart.  A
// launch in the template that names one instantiation whatever the
// template's parameters shares one key, as a launch outside a template does.
// (Before, a dependent launch was not routed: the file kept a launch of the
// renamed kernel, which no longer compiled.)
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -factor auto -candidates 2 -kernel tk %t.in.cu -o %t.cu 2>&1 | FileCheck --allow-empty --check-prefix=DIAG %s
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu
// DIAG-NOT: warning
// DIAG-NOT: error

// CHECK:      static tfuse_tune_site __tf_site = {"tk", "{{[0-9a-f]+}}", "template-host-launch.cu.tmp.in.cu:[[#L:]]", 2, __tf_cands, 0, __PRETTY_FUNCTION__};
// CHECK:      default: tk__tf_k1<<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(o, n); break;
// CHECK:      static tfuse_tune_site __tf_site = {"tk", "{{[0-9a-f]+}}", "template-host-launch.cu.tmp.in.cu:[[#L+1]]", 2, __tf_cands, 0, __PRETTY_FUNCTION__};
// CHECK:      default: tk__tf_k1<T><<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(o, n); break;
// CHECK:      static tfuse_tune_site __tf_site = {"tk", "{{[0-9a-f]+}}", "template-host-launch.cu.tmp.in.cu:[[#L+2]]", 2, __tf_cands, 0};
// CHECK:      default: tk__tf_k1<float><<<__tf_grid, __tf_block, __tf_smem, __tf_stream>>>(f, n); break;
// CHECK:      static tfuse_tune_site __tf_site = {"tk", "{{[0-9a-f]+}}", "template-host-launch.cu.tmp.in.cu:[[#L+7]]", 2, __tf_cands, 0};

template <typename T>
__global__ void tk(T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (T)i;
}
template <typename T> void run(T *o, float *f, int n) {
  tk<<<n / 64, 64>>>(o, n);
  tk<T><<<n / 64, 64>>>(o, n);
  tk<float><<<n / 64, 64>>>(f, n);
}
void both(float *f, double *d, int n) {
  run(f, f, n);
  run(d, f, n);
  tk<<<n / 64, 64>>>(d, n);
}
