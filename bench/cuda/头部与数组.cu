// 头部与数组: buffers holding a header before a runtime-sized array. For i < min(swarm->count, n) (n = the
// particle array's length) particle i moves by vel * step + values[i] + offset; thread 0 bumps the
// generation and stores n in stats->length; each moved particle adds 1 to stats->total[0] and to
// stats->counts[i % n_counts]. Blocks of 64.
//@ 步进入口 = header_step
struct Particle { float2 pos, vel; };
struct Swarm { unsigned count; float step; unsigned generation; Particle items[]; };  // items at byte 16
struct Weights { float offset; float values[]; };
struct Stats { unsigned length; unsigned total[1]; unsigned counts[]; };
extern "C" __global__ void __launch_bounds__(64) header_step(Swarm *swarm, const Weights *__restrict__ w, Stats *stats,
                                                            unsigned n, unsigned n_counts) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float step = swarm->step;
    if (i == 0) {
        stats->length = n;
        swarm->generation += 1;
    }
    if (i < swarm->count && i < n) {
        Particle p = swarm->items[i];
        float push = w->values[i] + w->offset;
        swarm->items[i] = {make_float2(p.pos.x + p.vel.x * step + push, p.pos.y + p.vel.y * step + push), p.vel};
        atomicAdd(&stats->total[0], 1u);
        atomicAdd(&stats->counts[i % n_counts], 1u);
    }
}
