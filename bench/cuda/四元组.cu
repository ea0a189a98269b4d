// 四元组: quad operations over groups of 4 lanes: lane 2's value of the quad, and the values of lanes
// i ^ 1, i ^ 2, i ^ 3; the int2 (i, -i) of the quad's lane 0. All in uniform control flow. Blocks of 64.
//@ 四元组入口 = quad_ops
extern "C" __global__ void __launch_bounds__(64) quad_ops(const float *__restrict__ in, float4 *out, int2 *ints) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    float broadcast = __shfl_sync(0xffffffffu, x, 2, 4);
    float across = __shfl_xor_sync(0xffffffffu, x, 1);
    float down = __shfl_xor_sync(0xffffffffu, x, 2);
    float diagonal = __shfl_xor_sync(0xffffffffu, x, 3);
    int v = int(i);
    int2 first = make_int2(__shfl_sync(0xffffffffu, v, 0, 4), __shfl_sync(0xffffffffu, -v, 0, 4));
    out[i] = make_float4(broadcast, across, down, diagonal);
    ints[i] = first;
}
