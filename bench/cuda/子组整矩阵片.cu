// 子组整矩阵片: one warp computes C = A · Bᵀ in int8 with mma.sync m16n8k32 (s8 in, s32 accumulate; wmma
// has no k32 int8 shape): A is 16×64, B is stored transposed as 16×64 (B[n][k]), four signed bytes per
// word, low byte first; C is 16×16 int32, row-major. The words are staged in shared memory and the
// fragments loaded with ldmatrix; K runs 2 steps of 32, each two n8 halves. The same product again from
// an accumulator holding the bits of 1.5 × 2²³ (0x4B400000), read back through shared memory as float
// minus 12582912, is the dot product as a float without an int-to-float conversion. One block of 32.
// Loops: the copies run 256/32 = 8 rounds per thread, K 2 steps.
//@ 整片乘入口 = int_tile_mma 循环 8 LDG/2 循环 2 IMMA/2 循环 8 FADD
__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void *p) {
    unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}
__device__ __forceinline__ void mma_s8(int (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
// acc[0] is the n8 half of columns 0–7, acc[1] of 8–15; element (g, 2t + j) in [j], (g + 8, 2t + j) in [2 + j]
__device__ __forceinline__ void product(int (&acc)[2][4], const unsigned char *As, const unsigned char *Bs,
                                        unsigned lane) {
    unsigned m = lane / 8, r = lane % 8;
    for (unsigned k = 0; k < 64; k += 32) {
        unsigned a[4], b[4];
        ldmatrix_x4(a, As + (r + m % 2 * 8) * 64 + k + m / 2 * 16);
        ldmatrix_x4(b, Bs + (r + m / 2 * 8) * 64 + k + m % 2 * 16);
        mma_s8(acc[0], a, b[0], b[1]);
        mma_s8(acc[1], a, b[2], b[3]);
    }
}
extern "C" __global__ void __launch_bounds__(32) int_tile_mma(const unsigned *__restrict__ A,
                                                             const unsigned *__restrict__ B, int *C, float *D) {
    __shared__ __align__(16) unsigned As[256], Bs[256];
    __shared__ __align__(16) int bits[256];
    unsigned t = threadIdx.x, lane = t % 32, g = lane / 4, c = lane % 4 * 2;
    for (unsigned i = t; i < 256; i += 32) {
        As[i] = A[i];
        Bs[i] = B[i];
    }
    __syncthreads();
    const unsigned char *a8 = reinterpret_cast<const unsigned char *>(As), *b8 = reinterpret_cast<const unsigned char *>(Bs);
    int acc[2][4] = {}, biased[2][4];
    for (auto &half : biased) for (int &x : half) x = 0x4B400000;
    product(acc, a8, b8, lane);
    product(biased, a8, b8, lane);
    for (unsigned n = 0; n < 2; ++n) {
        *reinterpret_cast<int2 *>(C + g * 16 + n * 8 + c) = make_int2(acc[n][0], acc[n][1]);
        *reinterpret_cast<int2 *>(C + (g + 8) * 16 + n * 8 + c) = make_int2(acc[n][2], acc[n][3]);
        *reinterpret_cast<int2 *>(bits + g * 16 + n * 8 + c) = make_int2(biased[n][0], biased[n][1]);
        *reinterpret_cast<int2 *>(bits + (g + 8) * 16 + n * 8 + c) = make_int2(biased[n][2], biased[n][3]);
    }
    __syncthreads();
    for (unsigned j = t; j < 256; j += 32) D[j] = __int_as_float(bits[j]) - 12582912.0f;
}
