// 位技巧: per u32 x, (popcount, bit reverse, lowest set bit, Gray code) and (rotate left 8, is power of two,
// halves swapped, exponent field of float(x)). Blocks of 64.
//@ 位技巧入口 = bit_tricks
__device__ unsigned rotate_left(unsigned x, unsigned bits) { return __funnelshift_l(x, x, bits); }
__device__ unsigned is_power_of_two(unsigned x) { return x != 0u && (x & (x - 1u)) == 0u; }
extern "C" __global__ void __launch_bounds__(64) bit_tricks(const unsigned *__restrict__ in, uint4 *counts,
                                                           uint4 *transforms, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = in[i];
        unsigned lowest = x & (~x + 1u);
        counts[i] = make_uint4(__popc(x), __brev(x), lowest, x ^ (x >> 1));
        unsigned exponent = (__float_as_uint(float(x)) >> 23) & 0xffu;
        transforms[i] = make_uint4(rotate_left(x, 8), is_power_of_two(x), (x << 16) | (x >> 16), exponent);
    }
}
