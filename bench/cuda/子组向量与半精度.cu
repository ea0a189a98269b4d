// 子组向量与半精度: per warp the sum of xyz (a float3, for a centroid), the inclusive scan of w (f32), the
// sum and maximum of f16(x), the inclusive scan of the __half2 (y, z), and of the uint2 (z, w); the
// xor of u32(z) and the maximum of u32(w); the warp size. Blocks of 48: the second warp has only 16
// threads, so butterflies leave out partners past the warp's end (the full mask is fine: those lanes do
// not exist, they count as exited).
//@ 向量归约入口 = vector_scan 循环 5 SHFL/5 循环 5 SHFL/4
#include <cuda_fp16.h>
struct __align__(8) half4 { __half x, y, z, w; };
extern "C" __global__ void __launch_bounds__(48) vector_scan(const float4 *__restrict__ in, float4 *fout, half4 *hout,
                                                            uint4 *uout, unsigned *size) {
    const unsigned full = 0xffffffffu;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
    unsigned lanes = min(48u - threadIdx.x / 32 * 32, 32u);
    float4 v = in[i];
    float3 c = make_float3(v.x, v.y, v.z);
    __half h = __float2half_rn(v.x), hsum = h, hmax = h;
    for (unsigned d = 16; d > 0; d >>= 1) {
        bool there = (lane ^ d) < lanes;
        float cx = __shfl_xor_sync(full, c.x, d), cy = __shfl_xor_sync(full, c.y, d);
        float cz = __shfl_xor_sync(full, c.z, d);
        __half s = __shfl_xor_sync(full, hsum, d), m = __shfl_xor_sync(full, hmax, d);
        if (there) {
            c.x += cx; c.y += cy; c.z += cz;
            hsum = __hadd(hsum, s);
            hmax = __hmax(hmax, m);
        }
    }
    float w = v.w;
    __half2 pair = __floats2half2_rn(v.y, v.z);
    uint2 u = make_uint2(__float2uint_rz(v.z), __float2uint_rz(v.w));
    uint2 uscan = u;
    for (unsigned d = 1; d < 32; d <<= 1) {
        float sw = __shfl_up_sync(full, w, d);
        __half2 sp = __shfl_up_sync(full, pair, d);
        unsigned sx = __shfl_up_sync(full, uscan.x, d), sy = __shfl_up_sync(full, uscan.y, d);
        if (lane >= d) {
            w += sw;
            pair = __hadd2(pair, sp);
            uscan.x += sx; uscan.y += sy;
        }
    }
    fout[i] = make_float4(c.x, c.y, c.z, w);
    hout[i] = half4{hsum, hmax, __low2half(pair), __high2half(pair)};
    uout[i] = make_uint4(uscan.x, uscan.y, __reduce_xor_sync(full, u.x), __reduce_max_sync(full, u.y));
    if (i == 0) size[0] = warpSize;
}
