// The construct table (passes/constructs.def) decides acceptance: a kernel
// reaching a construct whose row says REFUSE, in its own text or in a
// helper it calls, is refused naming the construct and what the model
// lacks.  A statement expression (accepted, and emitted once for all
// copies, before the table), a range-based for, a GNU atomic builtin (it
// writes through its pointer with no call to follow), a compound literal,
// each in both modes.  -keep-going leaves the kernels unchanged and its
// report (-report-json) says why; a coarsened kernel's record lists the rows it
// reached (the census, scripts/census.py).
// RUN: not %tfuse -factor 2 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: not %tfuse -factor 2 -mode thread %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// RUN: %tfuse -factor 2 -keep-going %s -o %t.kg.cu -report-json %t.json 2> %t.err
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: python3 %S/../../../scripts/census.py %t.json | FileCheck %s --check-prefix=CENSUS

// CHECK: construct-table.cu:[[@LINE+4]]:11: error: 'statement expression' is not in tfuse's model of what it can coarsen: statements inside an expression are not emitted per copy
#pragma tfuse coarsen
__global__ void stmt_expr(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = ({ int t = in[i]; t * 2; });
  out[i] = v;
}

// CHECK: construct-table.cu:[[@LINE+6]]:3: error: 'range-based for' is not in tfuse's model of what it can coarsen: its hidden iterator and reference variables are not modelled
#pragma tfuse coarsen
__global__ void range_for(const int *in, int *out) {
  int a[4] = {1, 2, 3, 4};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  for (int x : a) s += x * in[i];
  out[i] = s;
}

// CHECK: construct-table.cu:[[@LINE+6]]:3: error: 'GNU atomic builtin' in 'bump', which the kernel calls, is not in tfuse's model of what it can coarsen: writes through its pointer operand where no call is seen: not modelled
__device__ void bump(int *p, int v) { __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
#pragma tfuse coarsen
__global__ void atomic_builtin(int *out) {
  int local = 0;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bump(&local, i);
  out[i] = local;
}

struct P { int a, b; };
// CHECK: construct-table.cu:[[@LINE+4]]:13: error: 'compound literal' is not in tfuse's model of what it can coarsen: an unnamed object tfuse does not replicate
#pragma tfuse coarsen
__global__ void compound_literal(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = ((P){i, 2}).a;
}

#pragma tfuse coarsen
__global__ void plain(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + 1;
}

// JSON: "kernel": "stmt_expr", "decision": "unchanged", "factor": "2 block.x", "reason": "'statement expression' is not in tfuse's model of what it can coarsen: statements inside an expression are not emitted per copy", "constructs": []}
// JSON: "kernel": "plain", "decision": "coarsened", "factor": "2 block.x", "reason": "", "constructs": ["block", "declaration", "variable", {{.*}}"subscript"{{.*}}]}
// CENSUS: census: 1 coarsened kernels in 1 reports
// CENSUS: 1  MODEL   subscript: an element of its array or of what the pointer points into

void launch(const int *in, int *out) {
  stmt_expr<<<8, 64>>>(in, out);
  range_for<<<8, 64>>>(in, out);
  atomic_builtin<<<8, 64>>>(out);
  compound_literal<<<8, 64>>>(out);
  plain<<<8, 64>>>(in, out);
}
