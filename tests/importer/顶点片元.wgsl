// A vertex and fragment pair: builtins, locations in order, an integer field (flat).
struct VertexOut {
  @builtin(position) position: vec4<f32>,
  @location(0) color: vec3<f32>,
  @location(1) @interpolate(flat) corner: u32,
}

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VertexOut {
  var out: VertexOut;
  let x = f32(index & 1u) * 2.0 - 1.0;
  let y = f32(index >> 1u) * 2.0 - 1.0;
  out.position = vec4<f32>(x, y, 0.0, 1.0);
  out.color = vec3<f32>(x * 0.5 + 0.5, y * 0.5 + 0.5, 0.25);
  out.corner = index;
  return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
  if (in.corner == 0u) {
    return vec4<f32>(1.0);
  }
  return vec4<f32>(in.color, 1.0);
}
