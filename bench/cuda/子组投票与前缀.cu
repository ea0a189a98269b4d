// 子组投票与前缀: per thread its warp's product, and/or/xor, inclusive and exclusive prefix sum and
// product, the values shuffled up and down one lane, lane 0's value, any(x > 6), all(x > 0), the ballot
// of odd values and "elected" (lane 0); the warp size. Blocks of 48: the second warp has only 16 threads,
// so the butterfly product leaves out partners past the warp's end (the full mask is fine: those lanes
// do not exist, they count as exited).
//@ 投票与前缀入口 = vote_scan 循环 5 SHFL 循环 5 SHFL/2
extern "C" __global__ void __launch_bounds__(48) vote_scan(const unsigned *__restrict__ in, uint4 *out,
                                                          unsigned *size) {
    const unsigned full = 0xffffffffu;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
    unsigned lanes = min(48u - threadIdx.x / 32 * 32, 32u);
    unsigned x = in[i];
    unsigned product = x;
    for (unsigned d = 16; d > 0; d >>= 1) {
        unsigned y = __shfl_xor_sync(full, product, d);
        if ((lane ^ d) < lanes) product *= y;
    }
    unsigned sum = x, prod = x;
    for (unsigned d = 1; d < 32; d <<= 1) {
        unsigned s = __shfl_up_sync(full, sum, d), p = __shfl_up_sync(full, prod, d);
        if (lane >= d) { sum += s; prod *= p; }
    }
    unsigned before = __shfl_up_sync(full, prod, 1);
    unsigned up = __shfl_up_sync(full, x, 1), down = __shfl_down_sync(full, x, 1);
    unsigned first = __shfl_sync(full, x, 0);
    bool any = __any_sync(full, x > 6), all = __all_sync(full, x > 0);
    unsigned ballot = __ballot_sync(full, (x & 1) == 1);
    out[i * 4] = make_uint4(product, __reduce_and_sync(full, x), __reduce_or_sync(full, x), __reduce_xor_sync(full, x));
    out[i * 4 + 1] = make_uint4(sum, prod, sum - x, lane == 0 ? 1u : before);
    out[i * 4 + 2] = make_uint4(up, down, first, any);
    out[i * 4 + 3] = make_uint4(all, ballot, 0u, lane == 0);
    if (i == 0) size[0] = warpSize;
}
