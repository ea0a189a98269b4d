@group(0) @binding(0) var 多: texture_multisampled_2d<f32>;

@group(0) @binding(1) var 深多: texture_depth_multisampled_2d;

@group(1) @binding(0) var<storage, read_write> 出: array<vec4<f32>>;

@group(1) @binding(1) var<storage, read_write> 深出: array<f32>;

@group(1) @binding(2) var<storage, read_write> 尺: array<u32>;

@compute @workgroup_size(64)
fn 多重采样读(@builtin(global_invocation_id) 号: vec3<u32>) {
  let i = 号.x;
  if i < arrayLength(&出) {
    let 大小 = textureDimensions(多);
    let w = 大小.x;
    let h = 大小.y;
    let 处 = vec2<u32>(i % w, (i / w) % h);
    let 样 = i / (w * h);
    出[i] = textureLoad(多, 处, 样);
    深出[i] = textureLoad(深多, 处, 样);
    if i == 0u {
      尺[0u] = textureNumSamples(多);
      尺[1u] = w;
      尺[2u] = h;
      尺[3u] = textureNumSamples(深多);
      尺[4u] = textureDimensions(深多).x;
    }
  }
}
