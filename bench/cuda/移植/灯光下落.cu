// 移植/灯光下落: each light i < count falls by 0.5 + 0.003 × (i mod 64) in y and wraps to the range's top y
// when below its bottom y; colour and radius unchanged. 32-byte lights; blocks of 64.
//@ 下落入口 = light_update
struct Light { float4 position; float3 color; float radius; };
struct Settings { unsigned count; };
struct Range { float4 lo, hi; };
extern "C" __global__ void __launch_bounds__(64) light_update(Light *lights, const Settings *config,
                                                             const Range *range) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < config->count) {
        float f = float(i);
        float y = lights[i].position.y - 0.5f - 0.003f * (f - 64.0f * floorf(f / 64.0f));
        lights[i].position.y = y < range->lo.y ? range->hi.y : y;
    }
}
