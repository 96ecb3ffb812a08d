// Memory, not names: a local array written through a pointer made from it
// is one per copy, whatever decays to that pointer.  The row `frag[v]` of a
// 2-D array cast to float4 (HeCBench vadd-cuda's form), `&frag[v][0]`, a
// member array `f.a` of a local struct, and a pointer local made from a
// row: each local gets a copy per logical thread in both modes.  The rows'
// points-to is the array itself, so the kernel writes nothing tfuse cannot
// trace (no untunable reason under -factor auto either).
// REQUIRES: nvcc
// RUN: %tfuse -factor 2 %s -o %t.b.cu
// RUN: FileCheck %s --check-prefix=BLOCK < %t.b.cu
// RUN: %nvcc-check %t.b.cu
// RUN: %tfuse -factor 2 -mode thread %s -o %t.t.cu
// RUN: FileCheck %s --check-prefix=THREAD < %t.t.cu
// RUN: %nvcc-check %t.t.cu
// RUN: %tfuse -factor auto %s -o %t.a.cu
// RUN: FileCheck %s --check-prefix=AUTO < %t.a.cu
// RUN: %nvcc-check %t.a.cu

// BLOCK-LABEL: void row_cast(
// BLOCK:       float frag_0[2][4];
// BLOCK-NEXT:  float frag_1[2][4];
// BLOCK:       *reinterpret_cast<float4*>(frag_0[v]) = *reinterpret_cast<const float4*>(in + base_0 + 4 * v);
// BLOCK-NEXT:  if (__tf_ok_1) *reinterpret_cast<float4*>(frag_1[v]) = *reinterpret_cast<const float4*>(in + base_1 + 4 * v);
// BLOCK:       = *reinterpret_cast<const float4*>(frag_0[v]);
// BLOCK-LABEL: void elem_addr(
// BLOCK:       *(float4 *)&frag_0[v][0] =
// BLOCK-LABEL: void member_array(
// BLOCK:       Frag f_0;
// BLOCK-NEXT:  Frag f_1;
// BLOCK:       *reinterpret_cast<uint4 *>(f_0.a) =
// BLOCK-LABEL: void row_pointer(
// BLOCK:       unsigned *row_0 = m_0[r];
// BLOCK-NEXT:  unsigned *row_1 = m_1[r];

// THREAD-LABEL: void row_cast(
// THREAD:       float frag_0[2][4];
// THREAD-NEXT:  float frag_1[2][4];
// THREAD:       *reinterpret_cast<float4*>(frag_1[v]) =
// THREAD-LABEL: void member_array(
// THREAD:       Frag f_1;
// THREAD-LABEL: void row_pointer(
// THREAD:       unsigned *row_1 = m_1[r];

// AUTO: static tfuse_tune_site __tf_site = {"row_cast", "{{[0-9a-f]+}}", "{{.*}}", 7, __tf_cands, 0};

#pragma tfuse coarsen
__global__ void row_cast(const float *in, float *out) {
  float frag[2][4];
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  for (int v = 0; v < 2; v++) {
    *reinterpret_cast<float4*>(frag[v]) = *reinterpret_cast<const float4*>(in + base + 4 * v);
    *reinterpret_cast<float4*>(out + base + 4 * v) = *reinterpret_cast<const float4*>(frag[v]);
  }
}

#pragma tfuse coarsen
__global__ void elem_addr(const float *in, float *out) {
  float frag[2][4];
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  for (int v = 0; v < 2; v++)
    *(float4 *)&frag[v][0] = *(const float4 *)(in + base + 4 * v);
  out[base / 8] = frag[0][1] + frag[1][2];
}

struct Frag {
  unsigned a[4];
  unsigned tag;
};

#pragma tfuse coarsen
__global__ void member_array(const unsigned *in, unsigned *out) {
  Frag f;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  f.tag = 7;
  *reinterpret_cast<uint4 *>(f.a) = *reinterpret_cast<const uint4 *>(in + i * 4);
  out[i] = f.a[0] + f.a[3] + f.tag;
}

#pragma tfuse coarsen
__global__ void row_pointer(const unsigned *in, unsigned *out) {
  unsigned m[2][8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < 2; r++) {
    unsigned *row = m[r];
    for (int c = 0; c < 8; c++)
      row[c] = in[i] * (unsigned)(r * 8 + c + 1);
  }
  out[i] = m[1][7] ^ m[0][3];
}

void launch(const float *fi, float *fo, const unsigned *ui, unsigned *uo, int blocks) {
  row_cast<<<blocks, 128>>>(fi, fo);
  elem_addr<<<blocks, 128>>>(fi, fo);
  member_array<<<blocks, 128>>>(ui, uo);
  row_pointer<<<blocks, 128>>>(ui, uo);
}
