// 直方图: bucket min(v, 255) of every input gets one more (global atomicAdd); blocks of 128.
//@ 统计入口 = histogram
extern "C" __global__ void __launch_bounds__(128) histogram(const unsigned *__restrict__ data, unsigned *buckets,
                                                           unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&buckets[min(data[i], 255u)], 1u);
}
