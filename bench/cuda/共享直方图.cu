// 共享直方图: 16 buckets counted with shared atomics, then added to global ones; the global maximum.
//@ 统计入口 = histogram
extern "C" __global__ void __launch_bounds__(64) histogram(const unsigned *__restrict__ data, unsigned *buckets, unsigned n) {
    __shared__ unsigned shared_buckets[16], group_max;
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 16) shared_buckets[t] = 0;
    if (t == 0) group_max = 0;
    __syncthreads();
    if (i < n) {
        unsigned v = data[i];
        atomicAdd(&shared_buckets[v % 16], 1u);
        atomicMax(&group_max, v);
    }
    __syncthreads();
    if (t < 16) atomicAdd(&buckets[t], shared_buckets[t]);
    if (t == 0) atomicMax(&buckets[16], group_max);
}
