// 前缀和: inclusive Hillis–Steele scan of each block of 256 (u32).
//@ 扫描入口 = scan 循环 8 BAR/2
extern "C" __global__ void __launch_bounds__(256) scan(const unsigned *__restrict__ in, unsigned *out, unsigned n) {
    __shared__ unsigned b[256];
    unsigned t = threadIdx.x, i = blockIdx.x * 256 + t;
    bool inside = i < n;
    b[t] = inside ? in[i] : 0u;
    __syncthreads();
    for (unsigned offset = 1; offset < 256; offset <<= 1) {
        unsigned add = t >= offset ? b[t - offset] : 0u;
        __syncthreads();
        b[t] += add;
        __syncthreads();
    }
    if (inside) out[i] = b[t];
}
