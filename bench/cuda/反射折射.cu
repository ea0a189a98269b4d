// 反射折射: per element (i < n = length of the ratio buffer) the reflection and refraction of the unit
// direction e about the unit normal n (ratio eta; zero vector on total internal reflection), faceforward
// (n, e, n), ldexp(x, k), x rounded to half precision and back, and four truth flags. Blocks of 64.
//@ 光线入口 = rays
#include <cuda_fp16.h>
__device__ float dot4(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
__device__ float4 refract4(float4 e, float4 n, float eta) {
    float d = dot4(n, e);
    float k = 1.0f - eta * eta * (1.0f - d * d);
    if (k < 0.0f) return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float s = eta * d + sqrtf(k);
    return make_float4(eta * e.x - s * n.x, eta * e.y - s * n.y, eta * e.z - s * n.z, eta * e.w - s * n.w);
}
__device__ float quantize(float x) { return __half2float(__float2half_rn(x)); }
extern "C" __global__ void __launch_bounds__(64) rays(const float4 *__restrict__ incident, const float4 *__restrict__ normal,
                                                     const float *__restrict__ ratio, const float4 *__restrict__ values,
                                                     const int4 *__restrict__ powers, float4 *reflected, float4 *refracted,
                                                     float4 *flipped, float4 *scaled, float4 *quantized, uint4 *truth,
                                                     unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 e = incident[i], nn = normal[i], x = values[i];
        float eta = ratio[i];
        float d2 = 2.0f * dot4(nn, e);
        reflected[i] = make_float4(e.x - d2 * nn.x, e.y - d2 * nn.y, e.z - d2 * nn.z, e.w - d2 * nn.w);
        refracted[i] = refract4(e, nn, eta);
        flipped[i] = dot4(e, nn) < 0.0f ? nn : make_float4(-nn.x, -nn.y, -nn.z, -nn.w);
        int4 k = powers[i];
        scaled[i] = make_float4(ldexpf(x.x, k.x), ldexpf(x.y, k.y), ldexpf(x.z, k.z), ldexpf(x.w, k.w));
        quantized[i] = make_float4(quantize(x.x), quantize(x.y), quantize(x.z), quantize(x.w));
        truth[i] = make_uint4(e.x > -0.5f && e.y > -0.5f && e.z > -0.5f && e.w > -0.5f,
                              e.x > 0.9f || e.y > 0.9f || e.z > 0.9f || e.w > 0.9f, eta < 1.0f, eta > 1.0f);
    }
}
