// 打包: WGSL's pack/unpack builtins on float4 f, int4 n and the u32 word w: 4×8 unorm/snorm and 2×16
// unorm/snorm packing (⌊0.5 + scale × clamp(x)⌋), 4×8 i8/u8 packing with and without clamping, the matching
// unpacks (byte ÷ 255, max(byte ÷ 127, −1), …) and the packed 4×8 dot products of w with its bit reverse.
// Blocks of 64.
//@ 打包入口 = pack_unpack
__device__ unsigned unorm(float x, float scale) { return unsigned(0.5f + scale * __saturatef(x)); }  // ≥ 0.5: truncation is ⌊⌋
__device__ unsigned snorm(float x, float scale) {
    return unsigned(__float2int_rd(0.5f + scale * fminf(fmaxf(x, -1.0f), 1.0f)));
}
__device__ unsigned bytes(unsigned a, unsigned b, unsigned c, unsigned d) {
    return (a & 0xffu) | (b & 0xffu) << 8 | (c & 0xffu) << 16 | d << 24;
}
__device__ unsigned halves(unsigned lo, unsigned hi) { return (lo & 0xffffu) | hi << 16; }
__device__ int sbyte(unsigned w, int k) { return int(w << (24 - 8 * k)) >> 24; }
__device__ unsigned ubyte(unsigned w, int k) { return (w >> 8 * k) & 0xffu; }
__device__ float snorm_of(int v, float scale) { return fmaxf(float(v) / scale, -1.0f); }

extern "C" __global__ void __launch_bounds__(64) pack_unpack(const float4 *__restrict__ F, const int4 *__restrict__ N,
                                                            const unsigned *__restrict__ W, uint4 *float_packs,
                                                            uint4 *int_packs, float4 *unorm_unpacked,
                                                            float4 *snorm_unpacked, float4 *half_unpacked,
                                                            int4 *int_unpacked, uint4 *uint_unpacked, uint2 *dots,
                                                            unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 f = F[i];
        int4 v = N[i];
        uint4 u = make_uint4(v.x, v.y, v.z, v.w);
        unsigned w = W[i];
        float_packs[i] = make_uint4(
            bytes(unorm(f.x, 255.0f), unorm(f.y, 255.0f), unorm(f.z, 255.0f), unorm(f.w, 255.0f)),
            bytes(snorm(f.x, 127.0f), snorm(f.y, 127.0f), snorm(f.z, 127.0f), snorm(f.w, 127.0f)),
            halves(unorm(f.x, 65535.0f), unorm(f.y, 65535.0f)),
            halves(snorm(f.z, 32767.0f), snorm(f.w, 32767.0f)));
        int_packs[i] = make_uint4(
            bytes(v.x, v.y, v.z, v.w), bytes(u.x, u.y, u.z, u.w),
            bytes(min(max(v.x, -128), 127), min(max(v.y, -128), 127), min(max(v.z, -128), 127), min(max(v.w, -128), 127)),
            bytes(min(u.x, 255u), min(u.y, 255u), min(u.z, 255u), min(u.w, 255u)));
        unorm_unpacked[i] = make_float4(ubyte(w, 0) / 255.0f, ubyte(w, 1) / 255.0f, ubyte(w, 2) / 255.0f,
                                        ubyte(w, 3) / 255.0f);
        snorm_unpacked[i] = make_float4(snorm_of(sbyte(w, 0), 127.0f), snorm_of(sbyte(w, 1), 127.0f),
                                        snorm_of(sbyte(w, 2), 127.0f), snorm_of(sbyte(w, 3), 127.0f));
        half_unpacked[i] = make_float4((w & 0xffffu) / 65535.0f, (w >> 16) / 65535.0f,
                                       snorm_of(int(w << 16) >> 16, 32767.0f), snorm_of(int(w) >> 16, 32767.0f));
        int_unpacked[i] = make_int4(sbyte(w, 0), sbyte(w, 1), sbyte(w, 2), sbyte(w, 3));
        uint_unpacked[i] = make_uint4(ubyte(w, 0), ubyte(w, 1), ubyte(w, 2), ubyte(w, 3));
        unsigned r = __brev(w);
        dots[i] = make_uint2(__dp4a(w, r, 0u), unsigned(__dp4a(int(w), int(r), 0)));
    }
}
