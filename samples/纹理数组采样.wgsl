@group(0) @binding(0) var 叠: texture_2d_array<f32>;

@group(0) @binding(1) var 体: texture_3d<f32>;

@group(0) @binding(2) var 盒: texture_cube<f32>;

@group(0) @binding(3) var 深叠: texture_depth_2d_array;

@group(0) @binding(4) var 线性: sampler;

@group(0) @binding(5) var 最近: sampler;

@group(0) @binding(6) var 比: sampler_comparison;

@group(1) @binding(0) var<storage, read> 方向: array<vec4<f32>>;

@group(1) @binding(1) var<storage, read> 参照: array<f32>;

@group(1) @binding(2) var<storage, read_write> 出: array<vec4<f32>>;

@compute @workgroup_size(64)
fn 数组采样(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  let 宽 = 16.0f;
  let 高 = 8.0f;
  let 零浮 = 0.0f;
  let u = (f32(i % 16u) + 0.25f) / 宽;
  let v = (f32(i / 16u) + 0.75f) / 高;
  let 处 = vec2<f32>(u, v);
  let 张 = i % 3u;
  let 深处 = (f32(i % 4u) + 0.5f) / 4.0f;
  let 参 = 参照[i];
  let 基 = i * 10u;
  出[基] = textureSampleLevel(叠, 线性, 处, 张, 零浮, vec2<i32>(-1i, 1i));
  出[基 + 1u] = textureGather(2, 叠, 线性, 处, 张, vec2<i32>(2i, -1i));
  出[基 + 2u] = textureSampleGrad(叠, 线性, 处, 张, vec2<f32>(1.0f / 宽, 零浮), vec2<f32>(零浮, 1.0f / 高), vec2<i32>(1i, 1i));
  出[基 + 3u] = textureSampleGrad(体, 线性, vec3<f32>(u, v, 深处), vec3<f32>(1.0f / 宽, 零浮, 零浮), vec3<f32>(零浮, 1.0f / 高, 零浮));
  出[基 + 4u] = textureGather(1, 盒, 线性, 方向[i].xyz);
  出[基 + 5u] = textureGather(深叠, 最近, 处, 张);
  出[基 + 6u] = textureGather(深叠, 最近, 处, 张, vec2<i32>(1i, 0i));
  出[基 + 7u] = textureGatherCompare(深叠, 比, 处, 张, 参);
  出[基 + 8u] = textureGatherCompare(深叠, 比, 处, 张, 参, vec2<i32>(0i, -1i));
  出[基 + 9u] = vec4<f32>(textureSampleCompareLevel(深叠, 比, 处, 张, 参), textureSampleCompareLevel(深叠, 比, 处, 张, 参, vec2<i32>(-1i, -1i)), 零浮, 零浮);
}
