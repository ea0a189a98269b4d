// 考拉兹: steps[i] = Collatz steps from start[i] to 1 (n → n/2 if even, 3n + 1 if odd; 0 when start ≤ 1),
// for i < n; blocks of 64. Loop count: start = 27 (111 steps); marker: the parity test.
//@ 考拉兹入口 = collatz 循环 111 LOP3
__device__ unsigned collatz_steps(unsigned x) {
    unsigned count = 0;
    while (x > 1) {
        x = (x & 1) == 0 ? x >> 1 : 3 * x + 1;
        ++count;
    }
    return count;
}
extern "C" __global__ void __launch_bounds__(64) collatz(const unsigned *__restrict__ start, unsigned *steps,
                                                       unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) steps[i] = collatz_steps(start[i]);
}
