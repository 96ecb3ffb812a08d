// Block mode replicates a __shared__ variable per logical block by renaming
// the kernel's own uses, and moves a view of the dynamic shared memory
// (`T *sdata = SharedMemory<T>();`, emit/shared-memory-struct.cu) to the
// copy's share.  Shared memory declared in another function that the kernel
// reaches otherwise is refused when the kernel replicates it, naming the
// function that declares it: SharedMemory<T>() used without a view (in a
// template the conversion has no call in the text), a view assigned again,
// a helper returning its own static array, a member function's.
// RUN: rm -f %t.out
// RUN: not %tfuse -factor 2 -mode block %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out

template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

__device__ int *scratch() {
  __shared__ int buf[128];
  return buf;
}

struct Stage {
  __device__ float *row() {
    static __shared__ float r[128];
    return r;
  }
};

#pragma tfuse coarsen
template <class T>
__global__ void no_view(const T *g_idata, T *g_odata, unsigned int n) {
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: shared-outside-kernel.cu:[[@LINE+1]]:9: error: 'operator T *' declares __shared__ '__smem', which block mode must replicate per logical block, and the kernel reaches it through code that runs without a call in the text; tfuse replicates only shared memory the kernel declares or names itself; declare it in the kernel (or pass it as an argument)
  ((T *)SharedMemory<T>())[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();
  if (tid == 0)
    g_odata[blockIdx.x] = ((T *)SharedMemory<T>())[1];
}

#pragma tfuse coarsen
__global__ void reassigned(const int *g_idata, int *g_odata, unsigned int n) {
  // CHECK: shared-outside-kernel.cu:[[@LINE+1]]:16: error: 'operator T *' uses __shared__ '__smem', which this kernel replicates per logical block
  int *sdata = SharedMemory<int>();
  if (n > 5)
    sdata = sdata + 1;
  // CHECK: shared-outside-kernel.cu:[[@LINE+1]]:13: error: 'scratch' uses __shared__ 'buf', which this kernel replicates per logical block
  int *sc = scratch();
  Stage st;
  // CHECK: shared-outside-kernel.cu:[[@LINE+1]]:15: error: 'row' uses __shared__ 'r', which this kernel replicates per logical block
  float *rw = st.row();
  unsigned int tid = threadIdx.x;
  sdata[tid] = g_idata[blockIdx.x * blockDim.x + tid];
  sc[tid] = (int)blockIdx.x;
  rw[tid] = (float)blockIdx.x;
  __syncthreads();
  g_odata[blockIdx.x * blockDim.x + tid] = sdata[tid ^ 1] + sc[tid ^ 1] + (int)rw[tid ^ 2];
}

int main() {
  int *a = 0, *b = 0;
  no_view<int><<<13, 128, 128 * sizeof(int)>>>(a, b, 1000);
  reassigned<<<13, 128, 128 * sizeof(int)>>>(a, b, 1000);
}
