// Block mode seeds the analysis with blockIdx of the coarsened dimension
// only: blockIdx.x, .y or .z is varying for -dim x, y or z; threadIdx,
// blockDim, gridDim and the other blockIdx components stay uniform.
// RUN: %tfuse -dump-after=uniform -dim x %s | FileCheck %s --check-prefix=X
// RUN: %tfuse -dump-after=uniform -dim y %s | FileCheck %s --check-prefix=Y
// RUN: %tfuse -dump-after=uniform -dim z %s | FileCheck %s --check-prefix=Z

// X-LABEL: FUNC 'k'
// X: VAR 'bx' <{{[0-9:]+}}> varying [varying]
// X: BUILTIN '{{[xyz]}}' blockIdx.x <{{[0-9:]+}}> varying
// X: VAR 'by' <{{[0-9:]+}}> [uniform]
// X: VAR 'bz' <{{[0-9:]+}}> [uniform]
// X: VAR 'tx' <{{[0-9:]+}}> [uniform]
// X: VAR 'gd' <{{[0-9:]+}}> [uniform]

// Y-LABEL: FUNC 'k'
// Y: VAR 'bx' <{{[0-9:]+}}> [uniform]
// Y: VAR 'by' <{{[0-9:]+}}> varying [varying]
// Y: VAR 'bz' <{{[0-9:]+}}> [uniform]
// Y: VAR 'tx' <{{[0-9:]+}}> [uniform]
// Y: VAR 'gd' <{{[0-9:]+}}> [uniform]

// Z-LABEL: FUNC 'k'
// Z: VAR 'bx' <{{[0-9:]+}}> [uniform]
// Z: VAR 'by' <{{[0-9:]+}}> [uniform]
// Z: VAR 'bz' <{{[0-9:]+}}> varying [varying]
// Z: VAR 'tx' <{{[0-9:]+}}> [uniform]
// Z: VAR 'gd' <{{[0-9:]+}}> [uniform]

#pragma tfuse coarsen
__global__ void k(int *out) {
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int bz = blockIdx.z;
  int tx = threadIdx.x + threadIdx.y + threadIdx.z + blockDim.x;
  int gd = gridDim.x + gridDim.y + gridDim.z;
  out[bx + by + bz + tx + gd] = 0;
}
