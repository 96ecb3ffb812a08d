#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void plain(float *out) { out[threadIdx.x] = 0.0f; }
// a kernel and its host launcher of the same name
__global__ void tiled(float *out) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  out[warp.meta_group_rank()] = cg::reduce(warp, 1.0f, cg::plus<float>());
}
void tiled(float *out, int block_size) { tiled<<<1, block_size>>>(out); }
__global__ void shuffled(float *out) { out[0] = __shfl_xor_sync(0xffffffffu, out[threadIdx.x], 1); }
void launch_shuffled(float *out) { shuffled<<<1, 32>>>(out); }
template <class Launcher> void via(float *out, Launcher launcher) { plain<<<1, 32>>>(out); launcher(out); }
void dispatch(int kernel_num, float *out) {
  switch (kernel_num) {
  case 1:
    tiled(out, 64);
    break;
  case 2:
    via(out, launch_shuffled); // passed, not called
    break;
  default:
    break;
  }
}
