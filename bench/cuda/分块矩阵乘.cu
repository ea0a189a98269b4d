// 分块矩阵乘: C = A·B with 16×16 tiles in shared memory, blocks of 256.
//@ 分块乘入口 = tiled 循环 4 BAR/2 循环 16 FFMA,FMUL
struct Dims { unsigned M, N, K; };
extern "C" __global__ void __launch_bounds__(256) tiled(const Dims *d, const float *__restrict__ A,
                                                       const float *__restrict__ B, float *C) {
    __shared__ float As[256], Bs[256];
    unsigned M = d->M, N = d->N, K = d->K;
    unsigned tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    unsigned col = blockIdx.x * 16 + tx, row = blockIdx.y * 16 + ty;
    float sum = 0.0f;
    for (unsigned k0 = 0; k0 < K; k0 += 16) {
        unsigned ak = k0 + tx, bk = k0 + ty;
        As[ty * 16 + tx] = row < M && ak < K ? A[row * K + ak] : 0.0f;
        Bs[ty * 16 + tx] = bk < K && col < N ? B[bk * N + col] : 0.0f;
        __syncthreads();
        for (unsigned k = 0; k < 16; ++k) sum += As[ty * 16 + k] * Bs[k * 16 + tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}
