// 二维模板: 2-D and 3-D blocks. 模板: on a 宽×高 row-major grid, interior points get 4·c − up − down −
// left − right, edge points copy the input, and 序号 records each point's flat thread index (x fastest);
// blocks of 8×8. 编: on a 宽×高×深 volume, 编号 = flat index × 1024 + (lx + 4·ly + 16·lz); blocks of 4×4×4.
//@ 模板入口 = stencil
//@ 编号入口 = numbering
struct Dims { unsigned width, height, depth; };
extern "C" __global__ void __launch_bounds__(64) stencil(const Dims *p, const float *__restrict__ in, float *out,
                                                        unsigned *order) {
    unsigned w = p->width, h = p->height;
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        unsigned i = y * w + x;
        float c = in[i];
        if (x == 0 || y == 0 || x + 1 == w || y + 1 == h)
            out[i] = c;
        else
            out[i] = 4.0f * c - in[i - 1] - in[i + 1] - in[i - w] - in[i + w];
        order[i] = threadIdx.y * 8 + threadIdx.x;
    }
}
extern "C" __global__ void __launch_bounds__(64) numbering(const Dims *p, unsigned *ids) {
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y,
             z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < p->width && y < p->height && z < p->depth) {
        unsigned i = (z * p->height + y) * p->width + x;
        unsigned flat = (threadIdx.z * 4 + threadIdx.y) * 4 + threadIdx.x;  // the block's 4×4×4 thread index
        unsigned split = threadIdx.x + threadIdx.y * 4 + threadIdx.z * 16;
        ids[i] = flat * 1024 + split;
    }
}
