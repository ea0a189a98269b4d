// 分量与标量: swizzles and vector–scalar arithmetic on float4 v with s = i + 1: v.wzyx, v·s + (s − v)/2,
// (v.x·s, v.y·s, v.z, 2·v.x), and (i, i+1, i+2, i+3) % 3 × s as u32. Blocks of 64.
//@ 分量与标量入口 = swizzle
extern "C" __global__ void __launch_bounds__(64) swizzle(const float4 *__restrict__ in, float4 *fout, uint4 *uout,
                                                        unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 v = in[i];
        float s = float(i) + 1.0f;
        unsigned base = i * 3u;
        fout[base] = make_float4(v.w, v.z, v.y, v.x);
        fout[base + 1] = make_float4(v.x * s + (s - v.x) / 2.0f, v.y * s + (s - v.y) / 2.0f,
                                     v.z * s + (s - v.z) / 2.0f, v.w * s + (s - v.w) / 2.0f);
        fout[base + 2] = make_float4(v.x * s, v.y * s, v.z, v.x + v.x);
        unsigned k = i + 1u;
        uout[i] = make_uint4(i % 3u * k, (i + 1u) % 3u * k, (i + 2u) % 3u * k, (i + 3u) % 3u * k);
    }
}
