// 矩阵向量积: y = A·x, one thread per row, blocks of 64.
//@ 行积入口 = matvec 循环 64 FFMA,FMUL
struct Dims { unsigned rows, cols; };
extern "C" __global__ void __launch_bounds__(64) matvec(const Dims *d, const float *__restrict__ A,
                                                      const float *__restrict__ x, float *y) {
    unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned rows = d->rows, cols = d->cols;
    if (row < rows) {
        float sum = 0.0f;
        for (unsigned c = 0; c < cols; ++c) sum += A[row * cols + c] * x[c];
        y[row] = sum;
    }
}
