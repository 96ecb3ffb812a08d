// -check and pointers to structs: one that holds only floats, or only
// doubles (arrays and nested structs included, no padding), is tracked with
// its field kind (track_as), so that the ULP tolerance compares its fields
// as numbers; any other struct keeps track (bytewise).
// REQUIRES: nvcc
// RUN: sed 's#^//.*##' %s > %t.in.cu
// RUN: %tfuse -check -factor 2 -all-kernels %t.in.cu -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %nvcc-check %t.cu

// CHECK-LABEL: void run(
// CHECK:      __tf_check.track_as(p, "p", TFUSE_CHECK_DOUBLE, 8);
// CHECK:      __tf_check.track_as(b, "b", TFUSE_CHECK_FLOAT, 4);
// CHECK:      __tf_check.track_as(v, "v", TFUSE_CHECK_FLOAT, 4);
// CHECK:      __tf_check.track(m, "m");
// CHECK:      __tf_check.track(q, "q");

struct Particle { double pos[3]; double vel[3]; double mass; };
struct Inner { float a, b; };
struct Box { Inner lo, hi; float w[2]; };
struct Mixed { float a; int n; };
struct Padded { float a; double b; };

__global__ void move(Particle *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i].pos[0] += p[i].vel[0];
}
__global__ void grow(Box *b, float2 *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    b[i].w[0] *= 2.0f;
    v[i].x += 1.0f;
  }
}
__global__ void other(Mixed *m, Padded *q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    m[i].n++;
    q[i].b *= 0.5;
  }
}

void run(Particle *p, Box *b, float2 *v, Mixed *m, Padded *q, int n) {
  move<<<(n + 127) / 128, 128>>>(p, n);
  grow<<<(n + 127) / 128, 128>>>(b, v, n);
  other<<<(n + 127) / 128, 128>>>(m, q, n);
}
