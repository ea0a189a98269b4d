// Array literals and element writes, matrices built from columns and from scalars and their arithmetic,
// modf and frexp, a single atomic and a workgroup scalar, a bool vector &, a switch on an expression.
const WEIGHTS = array<f32, 4>(0.125, 0.25, 0.375, 0.25);
const CORNERS = array(vec2f(-1.0, 1.5), vec2f(2.0, -0.5), vec2f(0.25, 3.0));

@group(0) @binding(0) var<storage, read> input: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> count: atomic<u32>;
@group(0) @binding(3) var<storage, read_write> flags: array<u32>;

var<workgroup> first: u32;

fn weighted(table: array<f32, 4>, v: vec4f) -> f32 {
  var sum = 0.0;
  for (var k = 0u; k < 4u; k++) {
    sum += table[k] * v[k];
  }
  return sum;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = id.x;
  let v = input[i % arrayLength(&input)];
  // fill a local table in a loop, then change one element
  var table = array<f32, 4>(0.0, 0.0, 0.0, 0.0);
  for (var k = 0u; k < 4u; k++) {
    table[k] = v[k] * f32(k + 1u);
  }
  table[i % 4u] = -1.0;
  var corners = CORNERS;
  corners[i % 3u].y = v.x;
  let m = mat2x2f(v.xy, v.zw);
  let n = mat2x2<f32>(v.x, 1.0, v.y, -2.0);
  let p = m * n + m * 0.5 - 2.0 * n;
  let q = p * vec2f(1.0, v.w);
  var c = p;
  c[1] = q;
  let parts = modf(v.x * 3.5);
  let split = frexp(v.yz);
  let inside = all((v.xy > vec2f(-1.0)) & (v.xy < vec2f(1.0)));
  var code = 0u;
  switch (i % 4u) {
    case 0u: {
      code = 10u;
    }
    case 1u, 2u: {
      code = 20u;
    }
    default: {
      code = 30u;
    }
  }
  if (li == 0u) {
    first = i;
  }
  workgroupBarrier();
  if (inside) {
    atomicAdd(&count, 1u);
  }
  let base = (i * 4u) % arrayLength(&output);
  output[base] = vec4f(table[0], table[1], table[2], table[3]);
  output[base + 1u] = vec4f(corners[0], corners[i % 3u]);
  output[base + 2u] = vec4f(c[0], c[1]);
  output[base + 3u] = vec4f(parts.fract, parts.whole, split.fract.x, f32(split.exp.y) + weighted(WEIGHTS, v));
  flags[i % arrayLength(&flags)] = code + select(0u, 1u, inside) + first * 100u;
}
