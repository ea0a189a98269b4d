@vertex
fn 顶点(@builtin(vertex_index) 序: u32) -> @builtin(position) vec4<f32> {
  let x = f32(i32(序) - 1i);
  let y = f32((i32(序 & 1u) * 2i) - 1i);
  return vec4<f32>(x, y, 0.0f, 1.0f);
}

@fragment
fn 红() -> @location(0) vec4<f32> {
  return vec4<f32>(1.0f, 0.0f, 0.0f, 1.0f);
}
