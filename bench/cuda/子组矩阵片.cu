// 子组矩阵片: one warp computes C = C0 + f16(A) · f16(B)ᵀ with wmma 16×16×16 (f16 in, f32 accumulate):
// A is 16×32, B is stored transposed as 16×32 (B[n][k], so column-major K×N), C0 and C are 16×16, row-major.
// A and B are converted to __half in shared memory, C0 goes through shared memory too; two K steps of 16;
// the result is stored straight to D and, through shared memory, to C. One block of 32.
// Loops: the copies run 512/32 = 16, 256/32 = 8 and 8 rounds per thread; K runs 2 steps.
//@ 片乘入口 = tile_mma 循环 16 F2FP/2 循环 8 LDG 循环 2 HMMA/2 循环 8 LDS
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void __launch_bounds__(32) tile_mma(const float *__restrict__ A, const float *__restrict__ B,
                                                         const float *__restrict__ C0, float *C, float *D) {
    __shared__ __align__(32) __half As[512], Bs[512];
    __shared__ __align__(32) float Cs[256];
    unsigned t = threadIdx.x;
    for (unsigned i = t; i < 512; i += 32) {
        As[i] = __float2half_rn(A[i]);
        Bs[i] = __float2half_rn(B[i]);
    }
    for (unsigned j = t; j < 256; j += 32) Cs[j] = C0[j];
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, Cs, 16, wmma::mem_row_major);
    for (unsigned k = 0; k < 32; k += 16) {
        wmma::load_matrix_sync(a, As + k, 32);
        wmma::load_matrix_sync(b, Bs + k, 32);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(D, acc, 16, wmma::mem_row_major);
    __syncthreads();
    wmma::store_matrix_sync(Cs, acc, 16, wmma::mem_row_major);
    __syncthreads();
    for (unsigned j = t; j < 256; j += 32) C[j] = Cs[j];
}
