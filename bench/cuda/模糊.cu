// 模糊: three-point blur through a shared tile of 64 + 2 elements, clamped at the ends.
//@ 模糊入口 = blur
__device__ float clamped(const float *__restrict__ in, int i, unsigned n) {
    return in[min(max(i, 0), int(n) - 1)];
}
extern "C" __global__ void __launch_bounds__(64) blur(const float *__restrict__ in, float *out, unsigned n_in, unsigned n_out) {
    __shared__ float tile[66];
    unsigned t = threadIdx.x, i = blockIdx.x * 64 + t;
    int first = int(blockIdx.x * 64);
    tile[t + 1] = clamped(in, int(i), n_in);
    if (t == 0) {
        tile[0] = clamped(in, first - 1, n_in);
        tile[65] = clamped(in, first + 64, n_in);
    }
    __syncthreads();
    if (i < n_out) out[i] = (tile[t] + tile[t + 1] + tile[t + 2]) / 3.0f;
}
