enable subgroups;

// A full-screen triangle from an array literal; outputs at locations out of order with interpolation
// qualifiers; the fragment takes fine and coarse derivatives and fwidth, and swaps within its quad.
struct VertexOut {
  @builtin(position) position: vec4f,
  @location(3) @interpolate(linear) uv: vec2f,
  @location(0) @interpolate(flat) corner: u32,
  @location(1) @interpolate(perspective, centroid) shade: f32,
  @location(5) @interpolate(flat) tint: vec3f,
}

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VertexOut {
  let corners = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));
  let xy = corners[index % 3u];
  var out: VertexOut;
  out.position = vec4f(xy, 0.0, 1.0);
  out.uv = xy * 0.5 + vec2f(0.5);
  out.corner = index % 3u;
  out.shade = 0.25 + f32(index) * 0.125;
  out.tint = vec3f(1.0, 0.75, 0.5);
  return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4f {
  let x = in.uv.x * in.uv.x;
  let d = dpdxFine(x) + dpdyCoarse(in.uv.y) + fwidth(in.shade) + fwidthFine(x) - dpdyFine(x)
    + dpdxCoarse(in.uv.x) + fwidthCoarse(in.uv.y);
  let swapped = quadSwapX(in.uv.x) + quadSwapY(in.uv.y) * 0.5 + quadSwapDiagonal(in.shade) + quadBroadcast(x, 2u);
  return vec4f(d * 8.0, swapped * 0.25, f32(in.corner) * 0.25, 1.0) * vec4f(in.tint, 1.0);
}
