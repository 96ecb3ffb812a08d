// Thread mode seeds the analysis with threadIdx of the coarsened dimension
// only, for both mappings: blockIdx, blockDim and the other threadIdx
// components stay uniform.
// RUN: %tfuse -dump-after=uniform -mode thread %s | FileCheck %s --check-prefix=X
// RUN: %tfuse -dump-after=uniform -mode thread -mapping consecutive %s | FileCheck %s --check-prefix=X
// RUN: %tfuse -dump-after=uniform -mode thread -dim y %s | FileCheck %s --check-prefix=Y
// RUN: %tfuse -dump-after=uniform -mode thread -dim z -mapping consecutive %s | FileCheck %s --check-prefix=Z

// X-LABEL: FUNC 'k'
// X: VAR 'tx' <{{[0-9:]+}}> varying [varying]
// X: BUILTIN '{{[xyz]}}' threadIdx.x <{{[0-9:]+}}> varying
// X: VAR 'ty' <{{[0-9:]+}}> [uniform]
// X: VAR 'tz' <{{[0-9:]+}}> [uniform]
// X: VAR 'bx' <{{[0-9:]+}}> [uniform]

// Y-LABEL: FUNC 'k'
// Y: VAR 'tx' <{{[0-9:]+}}> [uniform]
// Y: VAR 'ty' <{{[0-9:]+}}> varying [varying]
// Y: VAR 'tz' <{{[0-9:]+}}> [uniform]
// Y: VAR 'bx' <{{[0-9:]+}}> [uniform]

// Z-LABEL: FUNC 'k'
// Z: VAR 'tx' <{{[0-9:]+}}> [uniform]
// Z: VAR 'ty' <{{[0-9:]+}}> [uniform]
// Z: VAR 'tz' <{{[0-9:]+}}> varying [varying]
// Z: VAR 'bx' <{{[0-9:]+}}> [uniform]

#pragma tfuse coarsen
__global__ void k(int *out) {
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int tz = threadIdx.z;
  int bx = blockIdx.x + blockIdx.y + blockIdx.z + blockDim.x + blockDim.y + blockDim.z;
  out[tx + ty + tz + bx] = 0;
}
