// 归约: per block of 256, the sum and the maximum (tree reduction in shared memory).
//@ 归约入口 = reduce 循环 8 BAR
extern "C" __global__ void __launch_bounds__(256) reduce(const float *__restrict__ in, float *sums, float *maxima, unsigned n) {
    __shared__ float s[256], m[256];
    unsigned t = threadIdx.x, i = blockIdx.x * 256 + t;
    float v = in[min(i, n - 1)];
    s[t] = i < n ? v : 0.0f;
    m[t] = v;
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
            m[t] = fmaxf(m[t], m[t + stride]);
        }
        __syncthreads();
    }
    if (t == 0) { sums[blockIdx.x] = s[0]; maxima[blockIdx.x] = m[0]; }
}
