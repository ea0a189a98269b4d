@group(0) @binding(0) var 深: texture_depth_2d;

@group(0) @binding(1) var 深叠: texture_depth_2d_array;

@group(0) @binding(2) var 叠: texture_2d_array<f32>;

@group(0) @binding(3) var 比: sampler_comparison;

@group(0) @binding(4) var 样: sampler;

@vertex
fn 全屏(@builtin(vertex_index) 序: u32) -> @builtin(position) vec4<f32> {
  let u = f32((序 << 1u) & 2u);
  let v = f32(序 & 2u);
  return vec4<f32>((u * 4.0f) - 1.0f, (v * 4.0f) - 1.0f, 0.0f, 1.0f);
}

@fragment
fn 着色(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
  let x = u32(p.x);
  let y = u32(p.y);
  let 处 = vec2<f32>(p.x / 16.0f, p.y / 8.0f);
  let 张 = (x + y) % 3u;
  let 参 = (f32(((x * 7u) + (y * 3u)) % 255u) + 0.5f) / 255.0f;
  let 四分 = 0.25f;
  let 半 = 0.5f;
  let 红 = ((textureSampleCompare(深叠, 比, 处, 张, 参) * 半) + (textureSampleCompare(深, 比, 处, 参, vec2<i32>(1i, 0i)) * 四分)) + (textureSampleCompare(深叠, 比, 处, 张, 参, vec2<i32>(0i, 1i)) * 四分);
  let 色 = ((textureSampleBias(叠, 样, 处, 张, 半).x * 半) + (textureSampleBias(叠, 样, 处, 张, 半, vec2<i32>(-1i, 0i)).y * 四分)) + (textureSample(叠, 样, 处, 张, vec2<i32>(0i, -1i)).z * 四分);
  return vec4<f32>(红, 色, 色, 色);
}
