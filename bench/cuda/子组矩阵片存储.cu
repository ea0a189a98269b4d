// 子组矩阵片存储: f16 fragments loaded straight from global memory (two halves per word, low half first) with
// mma.sync m16n8k16 (f16 in, f32 accumulate; wmma has no eight-row operations), and the first-eight-rows
// operations. A words is 16×16 A, B words is B stored transposed (B[n][k]), Bt is B's transpose (Bt[k][n]),
// all row-major with stride 16. out[0, 256) = A · Bᵀ; out[256, 512) = 1 + A · Bᵀ with B gathered from Bt;
// out[512, 768): the first 8 rows of A (through shared memory) times B onto an accumulator whose first 8
// rows come from shared memory (all 2; rows 8–15 zero), storing back only the first 8 rows: 2 + (A · Bᵀ)
// in rows 0–7, 2 in rows 8–15. One block of 32.
// Loops: the shared fill runs 128/32 = 4 rounds per thread, the write-back 256/32 = 8.
//@ 片存入口 = tile_store 循环 4 LDG 循环 8 LDS
#include <cuda_fp16.h>
__device__ __forceinline__ void mma_f16(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1,
                                        const float (&c)[4]) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%10, %11, %12, %13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1),
                   "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
}
// Fragments (g = lane / 4, t = lane % 4): A element pairs (g, 2t), (g + 8, 2t), (g, 2t + 8), (g + 8, 2t + 8);
// B pairs (k = 2t, n = g), (k = 2t + 8, n = g) of each n8 half; C (g, 2t + j), (g + 8, 2t + j) of each n8 half.
__device__ __forceinline__ void store_rows(float *out, const float (&c)[2][4], unsigned g, unsigned t, bool lower) {
    for (unsigned n = 0; n < 2; ++n) {
        *reinterpret_cast<float2 *>(out + g * 16 + n * 8 + 2 * t) = make_float2(c[n][0], c[n][1]);
        if (lower) *reinterpret_cast<float2 *>(out + (g + 8) * 16 + n * 8 + 2 * t) = make_float2(c[n][2], c[n][3]);
    }
}
extern "C" __global__ void __launch_bounds__(32) tile_store(const unsigned *__restrict__ Aw, const unsigned *__restrict__ Bw,
                                                           const unsigned *__restrict__ Bt, float *out) {
    __shared__ __align__(16) __half As[256];
    __shared__ __align__(16) float Cs[256];
    unsigned t = threadIdx.x, lane = t % 32, g = lane / 4, q = lane % 4;
    unsigned a[4] = {Aw[g * 8 + q], Aw[(g + 8) * 8 + q], Aw[g * 8 + q + 4], Aw[(g + 8) * 8 + q + 4]};
    unsigned b[2][2];
    for (unsigned n = 0; n < 2; ++n) {
        b[n][0] = Bw[(n * 8 + g) * 8 + q];
        b[n][1] = Bw[(n * 8 + g) * 8 + q + 4];
    }
    const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f}, one[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    float c[2][4];
    for (unsigned n = 0; n < 2; ++n) mma_f16(c[n], a, b[n][0], b[n][1], zero);
    store_rows(out, c, g, q, true);
    const unsigned short *bt = reinterpret_cast<const unsigned short *>(Bt);
    for (unsigned n = 0; n < 2; ++n) {
        unsigned col = n * 8 + g, k = 2 * q;
        unsigned b0 = bt[k * 16 + col] | unsigned(bt[(k + 1) * 16 + col]) << 16;
        unsigned b1 = bt[(k + 8) * 16 + col] | unsigned(bt[(k + 9) * 16 + col]) << 16;
        mma_f16(c[n], a, b0, b1, one);
    }
    store_rows(out + 256, c, g, q, true);
    for (unsigned w = t; w < 128; w += 32) {
        reinterpret_cast<__half2 *>(As)[w] = reinterpret_cast<const __half2 *>(Aw)[w];  // halves 2w, 2w + 1
        Cs[w * 2] = 2.0f;
        Cs[w * 2 + 1] = 2.0f;
    }
    __syncthreads();
    const unsigned *As2 = reinterpret_cast<const unsigned *>(As);
    unsigned top[4] = {As2[g * 8 + q], 0u, As2[g * 8 + q + 4], 0u};
    for (unsigned n = 0; n < 2; ++n) {
        float2 first = *reinterpret_cast<const float2 *>(Cs + g * 16 + n * 8 + 2 * q);
        const float acc[4] = {first.x, first.y, 0.0f, 0.0f};
        mma_f16(c[n], top, b[n][0], b[n][1], acc);
    }
    __syncthreads();
    store_rows(Cs, c, g, q, false);
    __syncthreads();
    for (unsigned j = t; j < 256; j += 32) out[j + 512] = Cs[j];
}
