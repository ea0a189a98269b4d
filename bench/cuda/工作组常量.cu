// 工作组常量: blocks of 8×4 (the width is an overridable constant in the source, so the local index uses
// blockDim.x): each thread stores its local index l in shared[l]; after a barrier it reads shared[(l+1) % 32]
// and writes it + 100 * block to out[32 * block + l].
//@ 轮转入口 = rotate
extern "C" __global__ void __launch_bounds__(32) rotate(unsigned *out) {
    __shared__ unsigned shared[32];
    unsigned l = threadIdx.y * blockDim.x + threadIdx.x, g = blockIdx.x;
    shared[l] = l;
    __syncthreads();
    out[g * 32 + l] = shared[(l + 1) % 32] + g * 100;
}
