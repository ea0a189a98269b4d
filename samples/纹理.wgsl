@group(0) @binding(0) var 图: texture_2d<f32>;

@group(0) @binding(1) var 样: sampler;

struct 全屏出 {
  @builtin(position) 位置: vec4<f32>,
  @location(0) 坐标: vec2<f32>,
}

struct 全屏入 {
  @builtin(position) 片元: vec4<f32>,
  @location(0) 坐标: vec2<f32>,
}

@vertex
fn 全屏(@builtin(vertex_index) 序: u32) -> 全屏出 {
  let u = f32((序 << 1u) & 2u);
  let v = f32(序 & 2u);
  return 全屏出(vec4<f32>((u * 2.0f) - 1.0f, (v * 2.0f) - 1.0f, 0.0f, 1.0f), vec2<f32>(u, 1.0f - v));
}

@fragment
fn 着色(入: 全屏入) -> @location(0) vec4<f32> {
  let 采 = textureSample(图, 样, 入.坐标);
  let 层 = textureSampleLevel(图, 样, 入.坐标, 0.0f);
  let 尺 = textureDimensions(图);
  let 像素 = vec2<i32>(vec2<f32>(入.片元.x, 入.片元.y));
  let 最右 = vec2<i32>(尺) - vec2<i32>(1i, 1i);
  let 素 = textureLoad(图, min(像素, 最右), 0);
  return mix(mix(采, 层, vec4<f32>(0.5f, 0.5f, 0.5f, 0.5f)), 素, vec4<f32>(0.25f, 0.25f, 0.25f, 0.25f));
}
