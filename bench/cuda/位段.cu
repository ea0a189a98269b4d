// 位段: per u32 x (s = x as i32, y = ~x) and a range (o, c), clamped as WGSL does (o = min(o, 32),
// c = min(c, 32 - o)): leading/trailing zero counts and first leading/trailing bit of x and of s, extract and
// insert bits, and on (x, y) the leading zeros and bits 28.. (count 8 clamped to 4). Blocks of 64.
//@ 位段入口 = bit_fields
__device__ unsigned trailing_zeros(unsigned x) { return __clz(__brev(x)); }      // 32 for 0
__device__ int first_leading_bit(unsigned x) { return 31 - __clz(x); }           // -1 for 0
__device__ int first_leading_bit(int s) { return 31 - __clz(s < 0 ? ~s : s); }   // -1 for 0 and -1
__device__ int first_trailing_bit(unsigned x) { return __ffs(x) - 1; }           // -1 for 0

__device__ unsigned extract_bits(unsigned x, unsigned o, unsigned c) {
    return c == 0u ? 0u : (x << (32u - o - c)) >> (32u - c);
}
__device__ int extract_bits(int s, unsigned o, unsigned c) {
    return c == 0u ? 0 : int(unsigned(s) << (32u - o - c)) >> (32u - c);
}
__device__ unsigned insert_bits(unsigned e, unsigned bits, unsigned o, unsigned c) {
    if (c == 0u) return e;
    unsigned mask = (0xffffffffu >> (32u - c)) << o;
    return (e & ~mask) | ((bits << o) & mask);
}

extern "C" __global__ void __launch_bounds__(64) bit_fields(const unsigned *__restrict__ in,
                                                           const uint2 *__restrict__ ranges, uint4 *ubits,
                                                           int4 *ibits, uint4 *fields, uint4 *pairs, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = in[i], y = ~x;
        int s = int(x);
        uint2 range = ranges[i];
        unsigned o = min(range.x, 32u), c = min(range.y, 32u - o);
        ubits[i] = make_uint4(__clz(x), trailing_zeros(x), first_leading_bit(x), first_trailing_bit(x));
        ibits[i] = make_int4(__clz(s), trailing_zeros(s), first_leading_bit(s), first_trailing_bit(s));
        fields[i] = make_uint4(extract_bits(x, o, c), unsigned(extract_bits(s, o, c)), insert_bits(x, y, o, c),
                               insert_bits(unsigned(s), y, o, c));
        pairs[i] = make_uint4(__clz(x), __clz(y), x >> 28, y >> 28);
    }
}
