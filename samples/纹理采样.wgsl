@group(0) @binding(0) var 图: texture_2d<f32>;

@group(0) @binding(1) var 叠: texture_2d_array<f32>;

@group(0) @binding(2) var 整图: texture_2d<u32>;

@group(0) @binding(3) var 深: texture_depth_2d;

@group(0) @binding(4) var 线性: sampler;

@group(0) @binding(5) var 最近: sampler;

@group(0) @binding(6) var 比: sampler_comparison;

@group(0) @binding(7) var 格: texture_storage_2d<r32sint, read_write>;

@group(1) @binding(0) var<storage, read> 参照: array<f32>;

@group(1) @binding(1) var<storage, read_write> 出: array<vec4<f32>>;

@group(1) @binding(2) var<storage, read_write> 整出: array<vec4<u32>>;

@group(1) @binding(3) var<storage, read_write> 邻: array<i32>;

@compute @workgroup_size(64)
fn 纹理采样(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  let x = i % 16u;
  let y = i / 16u;
  let 宽 = 16.0f;
  let 高 = 8.0f;
  let 零浮 = 0.0f;
  let u = (f32(x) + 0.25f) / 宽;
  let v = (f32(y) + 0.75f) / 高;
  let 处 = vec2<f32>(u, v);
  let 张 = i % 3u;
  let 三浮 = 3.0f;
  let 一浮 = 1.0f;
  let 参 = 参照[i];
  let 基 = i * 10u;
  出[基] = textureSampleGrad(图, 线性, 处, vec2<f32>(一浮 / 宽, 零浮), vec2<f32>(零浮, 一浮 / 高));
  出[基 + 1u] = textureSampleLevel(图, 线性, 处, 零浮, vec2<i32>(1i, -2i));
  出[基 + 2u] = textureGather(1, 图, 线性, 处);
  出[基 + 3u] = textureGather(3, 图, 线性, 处, vec2<i32>(-1i, 2i));
  出[基 + 4u] = textureGather(0, 叠, 线性, 处, 张);
  出[基 + 5u] = textureSampleGrad(叠, 线性, 处, 张, vec2<f32>(4.0f / 宽, 零浮), vec2<f32>(零浮, 4.0f / 高));
  出[基 + 6u] = textureSampleBaseClampToEdge(图, 线性, vec2<f32>((三浮 * u) - 一浮, (三浮 * v) - 一浮));
  出[基 + 7u] = textureGather(深, 最近, 处);
  出[基 + 8u] = textureGatherCompare(深, 比, 处, 参);
  出[基 + 9u] = vec4<f32>(textureSampleCompareLevel(深, 比, 处, 参), textureSampleCompareLevel(深, 比, 处, 参, vec2<i32>(1i, 1i)), textureGatherCompare(深, 比, 处, 参, vec2<i32>(1i, 1i)).x, 零浮);
  整出[i] = textureGather(2, 整图, 最近, 处);
  textureStore(格, vec2<u32>(x, y), vec4<i32>(-(i32(i) * 3i), 0i, 0i, 1i));
  textureBarrier();
  邻[i] = textureLoad(格, vec2<u32>(x ^ 1u, y)).x;
}
