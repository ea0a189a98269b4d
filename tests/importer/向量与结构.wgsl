// Structs, uniforms, swizzles, mixed scalar-vector arithmetic, field and component assignment,
// vector construction from parts, builtins, bitcast, an override.
struct Params {
  scale: f32,
  offset: vec2<f32>,
  count: u32,
}

struct Particle {
  pos: vec2<f32>,
  vel: vec2<f32>,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> particles: array<Particle>;
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> bits: array<u32>;

override damping: f32 = 0.75;

fn step_particle(p: Particle) -> Particle {
  var q = p;
  q.pos = p.pos + p.vel * params.scale;
  q.vel.y = q.vel.y * damping - 0.25;
  q.pos.x = clamp(q.pos.x, -1.0, 1.0);
  return q;
}

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  let i = gid.x;
  if (i >= arrayLength(&particles)) { return; }
  let p = step_particle(particles[i]);
  let d = length(p.vel) + dot(p.pos, params.offset);
  var v = vec4<f32>(p.pos * 2.0 + params.offset, d, 1.0);
  v = v.wzyx * 0.5 - vec4f(0.125);
  v.z = fma(v.x, v.y, v.z);
  out[i] = vec4(v.xy, max(v.z, 0.0), floor(v.w * 4.0) / 4.0);
  bits[i] = bitcast<u32>(d) ^ (local * 2654435761u);
}
