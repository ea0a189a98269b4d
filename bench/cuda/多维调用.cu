// 多维调用: every compute builtin: out[g] = (local index, block x, grid size x, local x + 8 * block x - g)
// for g < n, blocks of 8 (1-D, so the local index is threadIdx.x).
//@ 多维入口 = builtins
extern "C" __global__ void __launch_bounds__(8) builtins(uint4 *out, unsigned n) {
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned check = threadIdx.x + 8u * blockIdx.x - g;
    if (g < n) out[g] = make_uint4(threadIdx.x, blockIdx.x, gridDim.x, check);
}
