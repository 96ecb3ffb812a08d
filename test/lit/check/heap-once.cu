// -check and device-heap memory: a kernel that allocates or frees it (new,
// delete, malloc, free), run twice from one state, would free twice, so its
// launches run the coarsened kernel alone and tell the check runtime so
// (tfuse_check_ran_once: counted unchecked, "allocates or frees device-heap
// memory"); a kernel that does not keeps the checked launch.
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -check -factor 2 -all-kernels %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: void run(
// CHECK:      if (::tfuse_rt::check_on()) tfuse_check_ran_once("release", "heap-once.cu.tmp.in.cu:{{[0-9]+}}");
// CHECK-NEXT: release<<<::tfuse_rt::coarsen_grid(__tf_grid, 0, 2u), __tf_block>>>(::tfuse_rt::grid_extent(__tf_grid, 0), items, n);
// CHECK-NOT:  release__tf_orig<<<
// CHECK:      if (::tfuse_rt::check_on()) tfuse_check_ran_once("scratch", "{{.*}}");
// CHECK-NEXT: scratch<<<
// CHECK:      ::tfuse_rt::Check __tf_check("plain",
// CHECK:      plain__tf_orig<<<__tf_grid, __tf_block>>>(out, n);

struct Item { int v; };

__global__ void release(Item **items, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    delete items[i];
    items[i] = nullptr;
  }
}

__global__ void scratch(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *tmp = (int *)malloc(2 * sizeof(int));
  if (tmp) {
    tmp[0] = i;
    tmp[1] = 2 * i;
    if (i < n)
      out[i] = tmp[0] + tmp[1];
    free(tmp);
  }
}

__global__ void plain(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i;
}

void run(Item **items, int *out, int n) {
  release<<<(n + 127) / 128, 128>>>(items, n);
  scratch<<<(n + 127) / 128, 128>>>(out, n);
  plain<<<(n + 127) / 128, 128>>>(out, n);
}
