// 两种若: out[i] = smoothstep polynomial clamped to [0, 1]; flags[i] = 1 only where x was clamped (others kept);
// signs[i] = sign of x as -1/0/1 (i32). Blocks of 64.
//@ 两种若入口 = piecewise
__device__ float clamped_smooth(float x) {
    return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x * x * (3.0f - 2.0f * x);
}
__device__ int sign_of(float x) {
    return x > 0.0f ? 1 : x < 0.0f ? -1 : 0;
}
extern "C" __global__ void __launch_bounds__(64) piecewise(const float *__restrict__ in, float *out, unsigned *flags,
                                                          int *signs, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        out[i] = clamped_smooth(x);
        if (x < 0.0f || x > 1.0f) flags[i] = 1u;
        signs[i] = sign_of(x);
    }
}
