// 子组归约: per warp the sum, the maximum, lane 0's value, the xor-1 neighbour's value, and a
// butterfly sum; the warp size. Blocks of 64 (two whole warps).
//@ 子组归约入口 = warp_reduce 循环 5 FMNMX 循环 5 SHFL
extern "C" __global__ void __launch_bounds__(64) warp_reduce(const float *__restrict__ in, float4 *out,
                                                            float *butterfly, unsigned *size, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = i < n ? in[min(i, n - 1)] : 0.0f;
    float sum = x, biggest = x;
    for (int d = 16; d > 0; d >>= 1) {
        sum += __shfl_xor_sync(0xffffffffu, sum, d);
        biggest = fmaxf(biggest, __shfl_xor_sync(0xffffffffu, biggest, d));
    }
    float first = __shfl_sync(0xffffffffu, x, 0);
    float neighbour = __shfl_sync(0xffffffffu, x, (threadIdx.x % 32) ^ 1);
    float b = x;
    for (int d = 16; d > 0; d >>= 1) b += __shfl_xor_sync(0xffffffffu, b, d);
    if (i < n) {
        out[i] = make_float4(sum, biggest, first, neighbour);
        butterfly[i] = b;
    }
    if (i == 0) size[0] = warpSize;
}
