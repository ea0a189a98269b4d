@group(0) @binding(0) var 图: texture_2d<f32>;

@group(0) @binding(1) var 最近: sampler;

@group(0) @binding(2) var<storage, read_write> 亮度: array<f32>;

@group(0) @binding(3) var<storage, read_write> 差: array<f32>;

@compute @workgroup_size(64)
fn 纹素处理(@builtin(global_invocation_id) 号: vec3<u32>) {
  let 尺 = textureDimensions(图);
  let x = 号.x;
  let y = 号.y;
  if (x < 尺.x) && (y < 尺.y) {
    let 素 = textureLoad(图, vec2<u32>(x, y), 0);
    let 半 = 0.5f;
    let 中心 = vec2<f32>((f32(x) + 半) / f32(尺.x), (f32(y) + 半) / f32(尺.y));
    let 采 = textureSampleLevel(图, 最近, 中心, 0.0f);
    let 序 = (y * 尺.x) + x;
    亮度[序] = 0.25f * ((素.x + (2.0f * 素.y)) + 素.z);
    let d = abs(素 - 采);
    差[序] = ((d.x + d.y) + d.z) + d.w;
  }
}
