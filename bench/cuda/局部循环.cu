// 局部循环: result[i] = 0 + 1 + … + (i − 1), summed by a loop, for i < n; blocks of 64.
// Loop count: the thread with i = 64 (64 rounds). IADD3 is only an approximate marker: nvcc unrolls by 16 with the
// adds strength-reduced (10 IADD3 per 16 rounds), ours by 16 too (17 IADD3), so the executed counts are rough
// (a hand trace at i = 64: nvcc 90 SASS executed, ours 103).
//@ 三角数入口 = triangle 循环 64 IADD3
__device__ unsigned sum_below(unsigned count) {
    unsigned sum = 0;
    for (unsigned k = 0; k < count; ++k) sum += k;
    return sum;
}
extern "C" __global__ void __launch_bounds__(64) triangle(unsigned *result, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) result[i] = sum_below(i);
}
