// 矩阵变换: for i < n, out[i] = M·p[i] (M a column-major 4×4 in a uniform block) and normals[i] =
// normalize(N·(I·p[i].xyz)), w = 0 (N a 3×3 whose columns take 16 bytes; I the identity constant of the
// source); thread 0 also writes M's column 1, column 3, column 0 of M·M, row 2 of M (column 2 of its
// transpose), and (det N, 0, M[2].z, 0). Blocks of 64.
//@ 变换点入口 = transform
struct Transform { float4 model[4]; float4 normal[3]; };  // normal[k].xyz is column k
__device__ float4 mul4(const float4 (&m)[4], float4 v) {
    return make_float4(m[0].x * v.x + m[1].x * v.y + m[2].x * v.z + m[3].x * v.w,
                       m[0].y * v.x + m[1].y * v.y + m[2].y * v.z + m[3].y * v.w,
                       m[0].z * v.x + m[1].z * v.y + m[2].z * v.z + m[3].z * v.w,
                       m[0].w * v.x + m[1].w * v.y + m[2].w * v.z + m[3].w * v.w);
}
__device__ float3 mul3(const float3 (&m)[3], float3 v) {
    return make_float3(m[0].x * v.x + m[1].x * v.y + m[2].x * v.z, m[0].y * v.x + m[1].y * v.y + m[2].y * v.z,
                       m[0].z * v.x + m[1].z * v.y + m[2].z * v.z);
}
extern "C" __global__ void __launch_bounds__(64) transform(const Transform *t, const float4 *__restrict__ points,
                                                          float4 *out, float4 *normals, float4 *quantities, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 M[4] = {t->model[0], t->model[1], t->model[2], t->model[3]};
    float3 N[3];
    for (int k = 0; k < 3; ++k) N[k] = make_float3(t->normal[k].x, t->normal[k].y, t->normal[k].z);
    if (i < n) {
        float4 p = points[i];
        out[i] = mul4(M, p);
        const float3 identity[3] = {{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}};
        float3 v = mul3(N, mul3(identity, make_float3(p.x, p.y, p.z)));
        float len = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
        normals[i] = make_float4(v.x / len, v.y / len, v.z / len, 0.0f);
    }
    if (i == 0) {
        quantities[0] = M[1];
        quantities[1] = M[3];
        quantities[2] = mul4(M, M[0]);
        quantities[3] = make_float4(M[0].z, M[1].z, M[2].z, M[3].z);
        float det = N[0].x * (N[1].y * N[2].z - N[2].y * N[1].z) - N[1].x * (N[0].y * N[2].z - N[2].y * N[0].z) +
                    N[2].x * (N[0].y * N[1].z - N[1].y * N[0].z);
        quantities[4] = make_float4(det, 0.0f, M[2].z, 0.0f);
    }
}
