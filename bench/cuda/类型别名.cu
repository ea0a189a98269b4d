// 类型别名: grey = dot(c.rgb, (0.299, 0.587, 0.114)); grey[i] = g, out[i] = (g, g, g, c.a). Blocks of 64.
//@ 去色入口 = desaturate
__device__ float luminance(float4 c) { return c.x * 0.299f + c.y * 0.587f + c.z * 0.114f; }
extern "C" __global__ void __launch_bounds__(64) desaturate(const float4 *__restrict__ in, float4 *grey_colour,
                                                           float *grey, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 c = in[i];
        float g = luminance(c);
        grey[i] = g;
        grey_colour[i] = make_float4(g, g, g, c.w);
    }
}
