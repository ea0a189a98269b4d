// 数学一元: 21 unary math builtins of x = in[i], written to out[k × n + i] (n = length of in). Precision as our
// translation promises: exp, exp2, log, log2, sin, cos, tanh, inverseSqrt approximate (MUFU), tan = approximate
// sin / cos with an exact division, sqrt and asin / acos / atan precise. Blocks of 64.
//@ 一元入口 = unary_math
extern "C" __global__ void __launch_bounds__(64) unary_math(const float *__restrict__ in, float *out, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        float positive = fabsf(x) + 1.0f;
        float unit = fminf(fmaxf(x, -1.0f), 1.0f);
        float bounded = fminf(fmaxf(x, -10.0f), 10.0f);
        float *o = out + i;
        o[0 * n] = fabsf(x);
        o[1 * n] = sqrtf(fabsf(x));
        o[2 * n] = rsqrtf(positive);
        o[3 * n] = __expf(bounded);
        o[4 * n] = exp2f(bounded);
        o[5 * n] = __logf(positive);
        o[6 * n] = __log2f(positive);
        o[7 * n] = __sinf(x);
        o[8 * n] = __cosf(x);
        o[9 * n] = __sinf(x) / __cosf(x);
        o[10 * n] = __tanhf(x);
        o[11 * n] = asinf(unit);
        o[12 * n] = acosf(unit);
        o[13 * n] = atanf(x);
        o[14 * n] = floorf(x);
        o[15 * n] = ceilf(x);
        o[16 * n] = rintf(x);
        o[17 * n] = truncf(x);
        o[18 * n] = x - floorf(x);
        o[19 * n] = __saturatef(x);
        o[20 * n] = x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f;
    }
}
