// 流压缩: keep the odd inputs. Per warp: ballot, each kept lane's place = kept lanes below it, lane 0
// reserves the warp's room with one atomicAdd and broadcasts the start. Blocks of 48 (the second warp
// half full; its missing lanes count as exited, so the full mask is valid).
//@ 压缩入口 = compact
extern "C" __global__ void __launch_bounds__(48) compact(const unsigned *__restrict__ in, unsigned *out,
                                                        unsigned *count) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
    unsigned x = in[i];
    bool keep = (x & 1) == 1;
    unsigned vote = __ballot_sync(0xffffffffu, keep);
    unsigned place = __popc(vote & ((1u << lane) - 1));
    unsigned start = 0;
    if (lane == 0) start = atomicAdd(count, __popc(vote));
    start = __shfl_sync(0xffffffffu, start, 0);
    if (keep) out[start + place] = x;
}
