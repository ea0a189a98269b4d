@group(0) @binding(0) var 盒组: texture_cube_array<f32>;

@group(0) @binding(1) var 深盒: texture_depth_cube;

@group(0) @binding(2) var 深盒组: texture_depth_cube_array;

@group(0) @binding(3) var 最近: sampler;

@group(0) @binding(4) var 比: sampler_comparison;

@group(1) @binding(0) var<storage, read> 方向: array<vec4<f32>>;

@group(1) @binding(1) var<storage, read> 参照: array<f32>;

@group(1) @binding(2) var<storage, read_write> 出: array<vec4<f32>>;

@group(1) @binding(3) var<storage, read_write> 尺: array<u32>;

@compute @workgroup_size(64)
fn 立方数组采样(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  if i < arrayLength(&方向) {
    let 向 = 方向[i].xyz;
    let 张 = i % 2u;
    let 参 = 参照[i];
    let 零级 = 0i;
    let 基 = i * 2u;
    出[基] = textureSampleLevel(盒组, 最近, 向, 张, 0.0f);
    出[基 + 1u] = vec4<f32>(textureSampleLevel(深盒, 最近, 向, 零级), textureSampleLevel(深盒组, 最近, 向, 张, 零级), textureSampleCompareLevel(深盒, 比, 向, 参), textureSampleCompareLevel(深盒组, 比, 向, 张, 参));
    if i == 0u {
      尺[0u] = textureDimensions(盒组).x;
      尺[1u] = textureNumLayers(盒组);
      尺[2u] = textureDimensions(深盒).x;
      尺[3u] = textureNumLayers(深盒组);
    }
  }
}
