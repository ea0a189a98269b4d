// 移植/工作组计数: blocks of 2; thread 0 adds 1 to a[block], thread 1 adds 1 to b[block] (i32).
//@ 计数入口 = add_one
extern "C" __global__ void __launch_bounds__(2) add_one(int *a, int *b) {
    unsigned w = blockIdx.x;
    if (threadIdx.x == 0)
        a[w] += 1;
    else if (threadIdx.x == 1)
        b[w] += 1;
}
