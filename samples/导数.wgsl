enable subgroups;

@vertex
fn 全屏(@builtin(vertex_index) 序: u32) -> @builtin(position) vec4<f32> {
  let u = f32((序 << 1u) & 2u);
  let v = f32(序 & 2u);
  return vec4<f32>((u * 2.0f) - 1.0f, (v * 2.0f) - 1.0f, 0.0f, 1.0f);
}

@fragment
fn 求导(@builtin(position) 坐标: vec4<f32>) -> @location(0) vec4<f32> {
  let x = 坐标.x;
  let y = 坐标.y;
  let 红 = dpdxFine(x * x) / 32.0f;
  let 绿 = dpdyFine(y * y) / 32.0f;
  let 粗 = dpdxCoarse((x * 3.0f) + y) + dpdyCoarse(x + (y * 2.0f));
  let 邻 = (quadSwapX(x) - x) + (quadSwapY(y) - y);
  let 宽 = ((fwidth(x + (y * 2.0f)) / 8.0f) + (fwidthCoarse(x - y) / 16.0f)) + (fwidthFine(x * y) / 128.0f);
  return vec4<f32>(红, 绿, (粗 + 邻) / 8.0f, 宽);
}
