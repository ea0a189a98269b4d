// Written for the importer's tests: a storage struct with header fields before its runtime
// array (read, written, its length taken, atomics in an array field beside a fixed one), and
// a workgroup size given by an overridable constant.
struct Particle { pos: vec2f, vel: vec2f }
struct Particles {
  count: u32,
  step: f32,
  generation: u32,
  items: array<Particle>,
}
struct Stats { total: array<atomic<u32>, 1>, counts: array<atomic<u32>> }

@group(0) @binding(0) var<storage, read_write> particles: Particles;
@group(0) @binding(1) var<storage, read_write> stats: Stats;

override blockSize: u32 = 64u;

@compute @workgroup_size(blockSize)
fn advance(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  let n = arrayLength(&particles.items);
  if (i == 0u) {
    particles.generation = particles.generation + 1u;
  }
  // only the particles the header counts, and only those the buffer holds
  if (i < (particles.count % 100u) && i < n) {
    let p = particles.items[i];
    particles.items[i] = Particle(p.pos + p.vel * particles.step, p.vel);
    atomicAdd(&stats.total[0], 1u);
    atomicAdd(&stats.counts[i % arrayLength(&stats.counts)], 1u);
  }
}
