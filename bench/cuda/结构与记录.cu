// 结构与记录: one step of a particle (position, velocity): vel += (0, -gravity) * dt; pos += vel * dt; below
// the ground (y < 0) y becomes 0 and the vertical velocity is reversed and halved. For i < n, blocks of 64.
//@ 步进入口 = particle_step
struct Particle { float2 pos, vel; };
struct StepParams { float dt, gravity; };
__device__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ float2 operator*(float2 v, float k) { return make_float2(v.x * k, v.y * k); }
__device__ Particle advance(Particle old, StepParams p) {
    const float ground = 0.0f;
    float2 vel = old.vel + make_float2(ground, -p.gravity) * p.dt;
    float2 pos = old.pos + vel * p.dt;
    if (pos.y < ground) return {make_float2(pos.x, ground), make_float2(vel.x, vel.y * -0.5f)};
    return {pos, vel};
}
extern "C" __global__ void __launch_bounds__(64) particle_step(const StepParams *p, Particle *particles, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) particles[i] = advance(particles[i], *p);
}
