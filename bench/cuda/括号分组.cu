// 括号分组: data[i] = data[i] × 3 + 1 (u32), blocks of 64.
//@ 三倍加一入口 = triple_plus_one
extern "C" __global__ void __launch_bounds__(64) triple_plus_one(unsigned *data, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = data[i] * 3u + 1u;
}
