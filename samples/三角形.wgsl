struct 顶点出 {
  @builtin(position) 位置: vec4<f32>,
  @location(0) 颜色: vec4<f32>,
  @location(1) @interpolate(flat) 角: u32,
  @location(2) @interpolate(flat) 符号: i32,
}

struct 片元入 {
  @builtin(position) 坐标: vec4<f32>,
  @location(0) 颜色: vec4<f32>,
  @location(1) @interpolate(flat) 角: u32,
  @location(2) @interpolate(flat) 符号: i32,
}

const 半: f32 = 0.5f;

@vertex
fn 顶点(@builtin(vertex_index) 序: u32) -> 顶点出 {
  let x = select(select(0.0f, 半, 序 == 1u), -半, 序 == 0u);
  let y = select(-半, 半, 序 == 2u);
  return 顶点出(vec4<f32>(x, y, 0.0f, 1.0f), vec4<f32>(f32(序) * 半, 0.2f, 1.0f, 1.0f), 序, i32(序) - 1i);
}

@fragment
fn 片元(入: 片元入) -> @location(0) vec4<f32> {
  return select(入.颜色 * vec4<f32>(0.5f, 0.5f, 0.5f, 1.0f), 入.颜色, (入.符号 < 0i));
}
