// 序列与格: one thread per row of 16 floats (rows = n / 16): the running prefix sum of the row written out,
// and the count of its positive elements. Blocks of 64; the column loop runs 16 rounds.
//@ 行扫描入口 = row_scan 循环 16 LDG
extern "C" __global__ void __launch_bounds__(64) row_scan(const float *__restrict__ in, float *prefix, unsigned *positives,
                                                         unsigned n) {
    unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n / 16) {
        float sum = 0.0f;
        unsigned count = 0;
        for (unsigned c = 0; c < 16; ++c) {
            unsigned k = row * 16 + c;
            float x = in[k];
            sum += x;
            prefix[k] = sum;
            if (x > 0.0f) ++count;
        }
        positives[row] = count;
    }
}
