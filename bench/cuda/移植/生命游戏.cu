// 移植/生命游戏: one step of Conway's Game of Life (WebGPU sample gameOfLife) on a width×height grid of
// u32 cells (1 alive, 0 dead), row-major; neighbour coordinates wrap as u32 and are reduced modulo the
// width and height (x − 1 at x = 0 is 4294967295, as in the source). Blocks of 8×8.
//@ 生命入口 = life_step
__device__ __forceinline__ unsigned cell_index(uint2 size, unsigned x, unsigned y) {
    return (y % size.y) * size.x + x % size.x;
}
extern "C" __global__ void __launch_bounds__(64) life_step(const uint2 *__restrict__ size, const unsigned *__restrict__ now,
                                                          unsigned *next) {
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    uint2 s = *size;
    unsigned n = now[cell_index(s, x - 1, y - 1)] + now[cell_index(s, x, y - 1)] + now[cell_index(s, x + 1, y - 1)]
               + now[cell_index(s, x - 1, y)] + now[cell_index(s, x + 1, y)]
               + now[cell_index(s, x - 1, y + 1)] + now[cell_index(s, x, y + 1)] + now[cell_index(s, x + 1, y + 1)];
    unsigned i = cell_index(s, x, y);
    next[i] = now[i] == 1 ? (n == 2 || n == 3) : n == 3;
}
