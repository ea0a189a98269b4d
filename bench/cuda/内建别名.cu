// 内建别名: builtin aliases; out[i] = i, and out[i] = i × local invocation index. Blocks of 32.
//@ 只用号入口 = only_id
//@ 号与序入口 = id_times_index
extern "C" __global__ void __launch_bounds__(32) only_id(unsigned *out, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}
extern "C" __global__ void __launch_bounds__(32) id_times_index(unsigned *out, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i * threadIdx.x;   // the block is 32×1×1: local_invocation_index is threadIdx.x
}
