// 包甲/主: for each ray i (origin = pts[i].xyz, direction (0, 0, 1)), t = 0.5 × 0.1 × i and
// result[i] = clamp(|origin + t·direction|² / 100, 0, 1), for i < n; blocks of 64.
//@ 主入口 = rays
struct Ray { float3 origin, direction; };
__device__ float clamp01(float x) { return fminf(fmaxf(x, 0.0f), 1.0f); }
__device__ float squared_length(float3 v) { return v.x * v.x + v.y * v.y + v.z * v.z; }
__device__ float3 along(Ray r, float t) {
    return make_float3(r.origin.x + r.direction.x * t, r.origin.y + r.direction.y * t, r.origin.z + r.direction.z * t);
}
extern "C" __global__ void __launch_bounds__(64) rays(const float4 *__restrict__ pts, float *result, unsigned n) {
    const float scale = 0.5f, step = 0.1f;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 p = pts[i];
        Ray r = {make_float3(p.x, p.y, p.z), make_float3(0.0f, 0.0f, 1.0f)};
        float t = scale * step * float(i);
        result[i] = clamp01(squared_length(along(r, t)) / 100.0f);
    }
}
