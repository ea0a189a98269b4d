// 乘加 (saxpy): y[i] = a * x[i] + y[i] for i < count, blocks of 64.
//@ 乘加入口 = saxpy
struct Params { float a; unsigned count; };
extern "C" __global__ void __launch_bounds__(64) saxpy(const Params *p, const float *__restrict__ x, float *y) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p->count) y[i] = p->a * x[i] + y[i];
}
