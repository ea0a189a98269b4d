// 移植/耐心计数: each of a block's 16 threads adds 1 to a shared counter; after a barrier thread 0 writes
// it to out[block] (16 everywhere).
//@ 耐心入口 = patient
extern "C" __global__ void __launch_bounds__(16) patient(unsigned *out) {
    __shared__ unsigned count;
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
    atomicAdd(&count, 1u);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = count;
}
