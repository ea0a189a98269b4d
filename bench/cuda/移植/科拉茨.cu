// 移植/科拉茨: numbers[i] becomes its Collatz step count to 1 (0 for 0 and 1), or 0xFFFFFFFF once an odd
// n ≥ 1431655765 would overflow 3n + 1; one thread per block. Loop count: n = 27 (111 steps); the marker is
// the step counter's add (ours keeps it in a uniform register: UIADD3).
//@ 科拉茨入口 = collatz_steps 循环 111 IADD3,UIADD3
__device__ unsigned steps_of(unsigned n) {
    unsigned i = 0;
    while (n > 1) {
        if (n % 2 == 0) {
            n /= 2;
        } else {
            if (n >= 1431655765u) return 0xffffffffu;
            n = 3 * n + 1;
        }
        ++i;
    }
    return i;
}
extern "C" __global__ void __launch_bounds__(1) collatz_steps(unsigned *numbers) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    numbers[i] = steps_of(numbers[i]);
}
