@group(0) @binding(0) var<uniform> 尺寸: vec2<u32>;

struct 格入 {
  @builtin(instance_index) 实例: u32,
  @location(0) 活: u32,
  @location(1) 角: vec2<u32>,
}

struct 格出 {
  @builtin(position) 位置: vec4<f32>,
  @location(0) 活: f32,
}

fn 到裁剪(k: u32, 边: u32, 长边: u32) -> f32 {
  return ((((f32(k) / f32(边)) - 0.5f) * 2.0f) * f32(边)) / f32(长边);
}

@vertex
fn 格顶(入: 格入) -> 格出 {
  let 尺 = 尺寸;
  let w = 尺.x;
  let h = 尺.y;
  let i = 入.实例;
  let 长边 = max(w, h);
  return 格出(vec4<f32>(到裁剪((i % w) + 入.角.x, w, 长边), 到裁剪(((i - (i % w)) / w) + 入.角.y, h, 长边), 0.0f, 1.0f), f32(入.活));
}

@fragment
fn 格色(@location(0) 活: f32) -> @location(0) vec4<f32> {
  return vec4<f32>(活, 活, 活, 1.0f);
}
