// 数学多元: binary / ternary float builtins of a = A[i], b = B[i] to fout[k × n + i], and integer operations of
// v = V[i] to iout[k × n + i] (n = length of A). pow approximate (as ours: exp2(0.5 · log2)), atan2 precise;
// a % 3 as WGSL defines it (a − 3·trunc(a / 3)). Blocks of 64.
//@ 多元入口 = binary_math
extern "C" __global__ void __launch_bounds__(64) binary_math(const float *__restrict__ A, const float *__restrict__ B,
                                                            const int *__restrict__ V, float *fout, int *iout,
                                                            unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = A[i], b = B[i];
        float *f = fout + i;
        f[0 * n] = fmaxf(a, b);
        f[1 * n] = fminf(a, b);
        f[2 * n] = fminf(fmaxf(a, -1.0f), 1.0f);
        f[3 * n] = a * (1.0f - 0.25f) + b * 0.25f;
        f[4 * n] = a >= 0.0f ? 1.0f : 0.0f;
        float t = __saturatef((a - -1.0f) / (1.0f - -1.0f));
        f[5 * n] = t * t * (3.0f - 2.0f * t);
        f[6 * n] = __powf(fabsf(a) + 1.0f, 0.5f);
        f[7 * n] = atan2f(a, b);
        f[8 * n] = fmaf(a, b, 1.0f);
        f[9 * n] = a > b ? a : b;
        f[10 * n] = a - 3.0f * truncf(a / 3.0f);
        f[11 * n] = a / (fabsf(b) + 1.0f);
        f[12 * n] = fabsf(a - b);

        int v = V[i];
        int *o = iout + i;
        o[0 * n] = abs(v);
        o[1 * n] = max(v, 0);
        o[2 * n] = min(max(v, -100), 100);
        o[3 * n] = v > 0 ? 1 : v < 0 ? -1 : 0;
        o[4 * n] = v % 7;
        o[5 * n] = v / 3;
        o[6 * n] = -v;
        o[7 * n] = v >> 2;
        o[8 * n] = __popc(v);
        o[9 * n] = __brev(v);
        o[10 * n] = ~v;
        o[11 * n] = v << 3;
    }
}
