// 可覆盖常量: y[i] = coef * x[i] + y[i] for i < n with i % stride == 0, negated when flip; the three
// pipeline-overridable constants are __constant__ variables (set with cudaMemcpyToSymbol; defaults 2.0, 1,
// false). Blocks of 64.
//@ 乘加入口 = override_saxpy
__constant__ float coef = 2.0f;
__constant__ unsigned stride = 1;
__constant__ bool flip = false;
extern "C" __global__ void __launch_bounds__(64) override_saxpy(const float *__restrict__ x, float *y, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i % stride == 0) {
        float sum = coef * x[i] + y[i];
        y[i] = flip ? -sum : sum;
    }
}
