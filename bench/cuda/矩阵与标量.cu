// 矩阵与标量: a[i] read as the 2×2 matrix m with columns a.xy, a.zw; with s = b[i], writes by columns
// m * s, s * m, m + m * s and m - m to out[4i .. 4i+3]. Blocks of 64.
//@ 矩阵与标量入口 = matrix_scalar
extern "C" __global__ void __launch_bounds__(64) matrix_scalar(const float4 *__restrict__ A, const float *__restrict__ B,
                                                              float4 *out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 m = A[i];
    float s = B[i];
    float4 right = make_float4(m.x * s, m.y * s, m.z * s, m.w * s);
    float4 left = make_float4(s * m.x, s * m.y, s * m.z, s * m.w);
    out[4 * i] = right;
    out[4 * i + 1] = left;
    out[4 * i + 2] = make_float4(m.x + m.x * s, m.y + m.y * s, m.z + m.z * s, m.w + m.w * s);
    out[4 * i + 3] = make_float4(m.x - m.x, m.y - m.y, m.z - m.z, m.w - m.w);
}
