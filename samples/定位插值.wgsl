struct 点入 {
  @location(0) 角: vec2<f32>,
  @location(1) 权: f32,
  @location(5) 偏: vec2<f32>,
  @location(6) 深: f32,
  @location(7) 号: u32,
  @location(8) 色: vec3<f32>,
  @builtin(vertex_index) 序: u32,
}

struct 点出 {
  @builtin(position) 位置: vec4<f32>,
  @location(0) @interpolate(linear) 线: f32,
  @location(1) @interpolate(linear, sample) 样: f32,
  @location(2) @interpolate(perspective) 透: f32,
  @location(3) @interpolate(perspective, centroid) 心: f32,
  @location(7) @interpolate(flat) 号: u32,
  @location(8) @interpolate(flat) 色: vec3<f32>,
}

struct 片入 {
  @location(0) @interpolate(linear) 线: f32,
  @location(1) @interpolate(linear, sample) 样: f32,
  @location(2) @interpolate(perspective) 透: f32,
  @location(3) @interpolate(perspective, centroid) 心: f32,
  @location(7) @interpolate(flat) 号: u32,
  @location(8) @interpolate(flat) 色: vec3<f32>,
}

@vertex
fn 顶(入: 点入) -> 点出 {
  let w = 入.权;
  let i = f32(入.序);
  let p = 入.角 + 入.偏;
  return 点出(vec4<f32>(p.x * w, p.y * w, 入.深 * w, w), i, i, i, i, (入.号 * 4u) + 入.序, 入.色 * (1.0f - (i * 0.25f)));
}

@fragment
fn 片(入: 片入) -> @location(0) vec4<f32> {
  let 四分 = 0.25f;
  return vec4<f32>((入.线 + 入.样) * 四分, (入.透 + 入.心) * 四分, 入.色.z, (f32(入.号) + 1.0f) * 0.125f);
}
