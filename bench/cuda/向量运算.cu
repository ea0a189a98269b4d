// 向量运算: per element of a and b (float4, i < n): (cross(a.xyz, b.xyz), dot(a, b)); (length(a),
// distance(a, b), a[i % 4], a.x + a.y + a.z + a.w); normalize(a); (a < b) per component. Blocks of 64.
//@ 向量运算入口 = vector_ops
__device__ float dot4(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
extern "C" __global__ void __launch_bounds__(64) vector_ops(const float4 *__restrict__ A, const float4 *__restrict__ B,
                                                           float4 *cross_dot, float4 *measures, float4 *unit,
                                                           uint4 *less, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 a = A[i], b = B[i];
        cross_dot[i] = make_float4(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, dot4(a, b));
        float len = sqrtf(dot4(a, a));
        float4 d = make_float4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w);
        unsigned k = i % 4;
        float pick = k == 0 ? a.x : k == 1 ? a.y : k == 2 ? a.z : a.w;  // a dynamic index would go to local memory
        measures[i] = make_float4(len, sqrtf(dot4(d, d)), pick, a.x + a.y + a.z + a.w);
        unit[i] = make_float4(a.x / len, a.y / len, a.z / len, a.w / len);
        less[i] = make_uint4(a.x < b.x, a.y < b.y, a.z < b.z, a.w < b.w);
    }
}
