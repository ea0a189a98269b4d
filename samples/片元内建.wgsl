struct 顶出 {
  @builtin(position) 位置: vec4<f32>,
}

struct 片入 {
  @builtin(position) 坐标: vec4<f32>,
  @builtin(front_facing) 朝向: bool,
  @builtin(sample_index) 采样: u32,
  @builtin(sample_mask) 掩: u32,
}

struct 片出 {
  @location(0) 颜色: vec4<f32>,
  @builtin(frag_depth) 深度: f32,
  @builtin(sample_mask) 掩: u32,
}

@vertex
fn 顶(@builtin(vertex_index) 序: u32, @builtin(instance_index) 例: u32) -> 顶出 {
  let x = select(0.1f, 0.8f, 序 == 1u);
  let y = select(0.1f, 0.8f, 序 == 2u);
  let 镜 = select(-1.0f, 1.0f, 例 == 0u);
  return 顶出(vec4<f32>(x * 镜, y, 0.5f, 1.0f));
}

@fragment
fn 片(入: 片入) -> 片出 {
  let 面 = select(0.5f, 1.0f, 入.朝向);
  let 采 = f32(入.采样) + 0.25f;
  let 掩色 = f32(入.掩 & 15u) * 0.125f;
  return 片出(vec4<f32>(面, 采, 掩色, 1.0f), 入.坐标.x / 32.0f, select(入.掩, 0u, (入.坐标.y < 8.0f)));
}
