// 整小与尾阶: modf (whole = trunc(x), fraction = x − whole) and frexp of x and of (x, 3x). No guard, as in
// the source: launched with exactly one thread per element. Blocks of 64.
//@ 分离入口 = split
extern "C" __global__ void __launch_bounds__(64) split(const float *__restrict__ in, float4 *scalar_out, int *exp_out,
                                                      float4 *vector_out, int2 *vector_exp) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i], x3 = x * 3.0f;
    float whole = truncf(x), whole3 = truncf(x3);
    int e, e3;
    float mantissa = frexpf(x, &e);
    frexpf(x3, &e3);
    scalar_out[i] = make_float4(x - whole, whole, mantissa, 0.0f);
    exp_out[i] = e;
    vector_out[i] = make_float4(x - whole, x3 - whole3, whole, whole3);
    vector_exp[i] = make_int2(e, e3);
}
