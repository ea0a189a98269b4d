// 移植/鸟群: one step of the boids (WebGPU sample computeBoids, updateSprites): each boid looks at every
// other: closer than rule 1's distance counts toward the centre of mass, closer than rule 2's pushes it
// away, closer than rule 3's counts toward the mean velocity; the velocity's length is clamped to [0, 0.1]
// and the position wraps at ±1. 16-byte boids, blocks of 64; threads past the count do nothing.
// Loops: the look at the others runs count rounds: 1024 boids.
//@ 鸟群入口 = boids 循环 1024 MUFU
struct Rules { float dt, rule1Distance, rule2Distance, rule3Distance, rule1Scale, rule2Scale, rule3Scale; };
struct Boid { float2 pos, vel; };
__device__ __forceinline__ float wrap(float v) {
    v = v < -1.0f ? 1.0f : v;
    return v > 1.0f ? -1.0f : v;
}
extern "C" __global__ void __launch_bounds__(64) boids(const Rules *p, const Boid *__restrict__ old, Boid *out, unsigned n) {
    unsigned self = blockIdx.x * blockDim.x + threadIdx.x;
    if (self < n) {
        Rules r = *p;
        Boid me = old[self];
        float2 mass = {0.0f, 0.0f}, vel = {0.0f, 0.0f}, avoid = {0.0f, 0.0f};
        unsigned mass_count = 0, vel_count = 0;
        for (unsigned i = 0; i < n; ++i) {
            if (i == self) continue;
            Boid other = old[i];
            float dx = other.pos.x - me.pos.x, dy = other.pos.y - me.pos.y;
            float d = sqrtf(dx * dx + dy * dy);
            if (d < r.rule1Distance) { mass.x += other.pos.x; mass.y += other.pos.y; ++mass_count; }
            if (d < r.rule2Distance) { avoid.x -= dx; avoid.y -= dy; }
            if (d < r.rule3Distance) { vel.x += other.vel.x; vel.y += other.vel.y; ++vel_count; }
        }
        if (mass_count > 0) {
            mass.x = mass.x / float(mass_count) - me.pos.x;
            mass.y = mass.y / float(mass_count) - me.pos.y;
        }
        if (vel_count > 0) {
            vel.x /= float(vel_count);
            vel.y /= float(vel_count);
        }
        float vx = me.vel.x + (mass.x * r.rule1Scale + avoid.x * r.rule2Scale + vel.x * r.rule3Scale);
        float vy = me.vel.y + (mass.y * r.rule1Scale + avoid.y * r.rule2Scale + vel.y * r.rule3Scale);
        float length = sqrtf(vx * vx + vy * vy), speed = fminf(fmaxf(length, 0.0f), 0.1f);
        vx = vx / length * speed;
        vy = vy / length * speed;
        out[self] = Boid{make_float2(wrap(me.pos.x + vx * r.dt), wrap(me.pos.y + vy * r.dt)), make_float2(vx, vy)};
    }
}
