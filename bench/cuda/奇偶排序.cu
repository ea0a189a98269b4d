// 奇偶排序: odd–even transposition sort of each block of 256 u32 in shared memory (missing elements padded
// with 0xFFFFFFFF and not written back): 256 rounds, a barrier after each. Blocks of 256.
//@ 排序入口 = odd_even_sort 循环 256 BAR
extern "C" __global__ void __launch_bounds__(256) odd_even_sort(unsigned *data, unsigned n) {
    __shared__ unsigned b[256];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    bool inside = i < n;
    b[t] = inside ? data[i] : 0xffffffffu;
    __syncthreads();
    for (unsigned r = 0; r < 256; ++r) {
        if ((t & 1) == (r & 1) && t + 1 < 256) {
            unsigned left = b[t], right = b[t + 1];
            if (left > right) {
                b[t] = right;
                b[t + 1] = left;
            }
        }
        __syncthreads();
    }
    if (inside) data[i] = b[t];
}
