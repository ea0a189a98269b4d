struct 顶点入 {
  @location(0) 位置: vec4<f32>,
  @location(1) 坐标: vec2<f32>,
  @location(2) 透明度: f32,
}

struct 顶点出 {
  @builtin(position) 位置: vec4<f32>,
  @location(0) 坐标: vec2<f32>,
  @location(1) 透明度: f32,
}

struct 片元入 {
  @builtin(position) 坐标点: vec4<f32>,
  @builtin(front_facing) 正面: bool,
  @builtin(sample_index) 采样: u32,
  @builtin(sample_mask) 掩码: u32,
  @location(0) 坐标: vec2<f32>,
  @location(1) 透明度: f32,
}

struct 片元出 {
  @location(0) 颜色: vec4<f32>,
  @location(1) 法线色: vec4<f32>,
  @builtin(frag_depth) 深度: f32,
  @builtin(sample_mask) 掩码: u32,
}

const 阈值: f32 = 0.1f;

@vertex
fn 透传(入: 顶点入) -> 顶点出 {
  return 顶点出(入.位置, 入.坐标, 入.透明度);
}

fn 网格线(uv: vec2<f32>) -> f32 {
  let 格数 = uv * vec2<f32>(8.0f, 8.0f);
  let 宽 = abs(dpdx(格数)) + abs(dpdy(格数));
  let f = fract(格数);
  let 近 = step(f, 宽);
  return max(近.x, 近.y);
}

@fragment
fn 着色(入: 片元入) -> 片元出 {
  if 入.透明度 < 阈值 {
    discard;
  }
  let 线 = 网格线(入.坐标);
  let 底 = select(0.5f, 1.0f, 入.正面);
  let 采 = f32(入.采样) * 0.25f;
  return 片元出(vec4<f32>(底, 线, 采, 入.透明度), vec4<f32>(0.0f, 0.0f, 1.0f, 1.0f), saturate(入.坐标点.z + (线 * 0.01f)), 入.掩码 & 15u);
}
