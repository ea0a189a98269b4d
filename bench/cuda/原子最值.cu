// 原子最值: three kernels dispatched in turn. reset_extrema (blocks of 1): thread 0 sets extrema[0] to
// INT_MIN, extrema[1] to INT_MAX, count[0] to 0; find_extrema (blocks of 128): atomicMax/atomicMin of each
// input into extrema[0]/[1], and count[0] += 1 for each positive one; read_out (blocks of 1): thread 0
// copies the three words to out. The atomic stores and loads of the source are plain stores and loads
// here: the kernels are separate launches, so nothing else touches the words meanwhile.
//@ 重置入口 = reset_extrema
//@ 求极值入口 = find_extrema
//@ 读出入口 = read_out
#include <climits>
extern "C" __global__ void __launch_bounds__(1) reset_extrema(int *extrema, unsigned *count) {
    if (blockIdx.x * blockDim.x + threadIdx.x == 0) {
        extrema[0] = INT_MIN;
        extrema[1] = INT_MAX;
        count[0] = 0;
    }
}
extern "C" __global__ void __launch_bounds__(128) find_extrema(const int *__restrict__ in, int *extrema, unsigned *count,
                                                              unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        atomicMax(&extrema[0], v);
        atomicMin(&extrema[1], v);
        if (v > 0) atomicAdd(&count[0], 1u);
    }
}
extern "C" __global__ void __launch_bounds__(1) read_out(const int *extrema, const unsigned *count, unsigned *out) {
    if (blockIdx.x * blockDim.x + threadIdx.x == 0) {
        out[0] = unsigned(extrema[0]);
        out[1] = unsigned(extrema[1]);
        out[2] = count[0];
    }
}
