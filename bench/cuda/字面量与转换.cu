// 字面量与转换: typed literals and conversions; per i32 x eight u32 at out[8i .. 8i+7]: u32(x),
// u32(|x / 10|), bits of 1.0, 31 + 40, bits of -3, u32(3.5 × 2), the sum of (x, 1, 2, 3) as u32,
// round(π × 1000). Blocks of 64.
//@ 字面量入口 = literals
extern "C" __global__ void __launch_bounds__(64) literals(const int *__restrict__ ints, unsigned *out, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = ints[i];
        float f = float(x) / 10.0f;
        unsigned *o = out + i * 8u;
        o[0] = unsigned(x);
        o[1] = unsigned(fabsf(f));
        o[2] = __float_as_uint(1.0f);
        o[3] = 0x1Fu + 40u;
        o[4] = unsigned(-3);
        o[5] = unsigned(3.5f * 2.0f);
        o[6] = unsigned(x) + 1u + 2u + 3u;
        o[7] = unsigned(rintf(__uint_as_float(0x40490FDBu) * 1000.0f));
    }
}
