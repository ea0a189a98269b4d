// 加倍: data[i] *= 2 (u32), one thread per element, blocks of 4.
//@ 加倍入口 = doubling
extern "C" __global__ void __launch_bounds__(4) doubling(unsigned *data, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= 2u;
}
