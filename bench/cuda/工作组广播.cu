// 工作组广播: per block of 64, thread 0 puts the block's first element and the 2×2 matrix with columns
// (first, 0) and (0, 1) in shared memory; after a barrier every thread writes out[i] = x[i] + first and
// rot[i] = M·(x[i], 1); a barrier (storageBarrier) at the end.
//@ 广播入口 = broadcast
extern "C" __global__ void __launch_bounds__(64) broadcast(const float *__restrict__ in, float *out, float2 *rot,
                                                          unsigned n) {
    __shared__ float first;
    __shared__ float2 m[2];  // the matrix's columns
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) {
        float f = in[min(i, n - 1)];
        first = f;
        m[0] = make_float2(f, 0.0f);
        m[1] = make_float2(0.0f, 1.0f);
    }
    __syncthreads();
    if (i < n) {
        float x = in[i];
        out[i] = x + first;
        float2 c0 = m[0], c1 = m[1];
        rot[i] = make_float2(c0.x * x + c1.x * 1.0f, c0.y * x + c1.y * 1.0f);
    }
    __syncthreads();
}
