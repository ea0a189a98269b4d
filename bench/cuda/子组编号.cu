// 子组编号: per thread its warp index, the warp count, its lane, the warp size and gridDim (x + 10y + 100z);
// each warp's sum of the input, written by lane 0 to partial[group × warps + warp]. Blocks of 48 (the
// second warp has only 16 threads), a 2-D grid of 3×2 blocks.
//@ 编号入口 = subgroup_ids
extern "C" __global__ void __launch_bounds__(48) subgroup_ids(const unsigned *__restrict__ in, unsigned *ids,
                                                             unsigned *partial) {
    unsigned group = blockIdx.y * gridDim.x + blockIdx.x;
    unsigned i = group * 48 + threadIdx.x;
    unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = (blockDim.x + 31) / 32;
    unsigned sum = __reduce_add_sync(0xffffffffu, in[i]);
    ids[5 * i] = warp;
    ids[5 * i + 1] = warps;
    ids[5 * i + 2] = lane;
    ids[5 * i + 3] = warpSize;
    ids[5 * i + 4] = gridDim.x + gridDim.y * 10 + gridDim.z * 100;
    if (lane == 0) partial[group * warps + warp] = sum;
}
