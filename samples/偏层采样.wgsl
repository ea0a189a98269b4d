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
  let 坐 = 入.坐标;
  let 偏 = textureSampleBias(图, 样, 坐, 1.0f);
  let 移 = textureSample(图, 样, 坐, vec2<i32>(1i, 0i));
  let 偏移 = textureSampleBias(图, 样, 坐, -1.0f, vec2<i32>(0i, 1i));
  return ((偏 * 0.5f) + (移 * 0.25f)) + (偏移 * 0.25f);
}
