// 原子位运算: per thread v = in[i]: global atomic and/or/xor/sub/exchange on bits[0..4] (the exchanged-out
// value to old[i]), an i32 atomic subtract of v & 255, a compare-and-swap claim of seats[i % 16] from 0 to
// i + 1 (claimed flag and seen value to claims[3i], [3i+1]); in shared memory an i32 xor and a claim of
// slot 1 from 0 to t + 1 (flag to claims[3i+2]); after a barrier thread 0 writes both shared words to
// group_out[2g], [2g+1]. Blocks of 64.
// atomicCAS is strong, so the source's retry loop for a spurious failure of the weak compare-exchange
// (retry while not exchanged and the value seen is still 0) never retries and is not written here. Our
// PTX keeps the two loops; the 循环 parts are for them: 0 retries (ptxas peels the first compare-exchange
// out of the loop, so the SASS loop left is the retry; where it does not peel, the body still runs once).
//@ 位运算入口 = atomic_bits 循环 0 ATOMG 循环 0 ATOMS
extern "C" __global__ void __launch_bounds__(64) atomic_bits(const unsigned *__restrict__ in, unsigned *bits, int *ints,
                                                            unsigned *seats, unsigned *old, unsigned *claims,
                                                            unsigned *group_out) {
    __shared__ int shared[2];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 2) shared[t] = 0;
    __syncthreads();
    unsigned v = in[i];
    atomicAnd(&bits[0], v);
    atomicOr(&bits[1], v);
    atomicXor(&bits[2], v);
    atomicSub(&bits[3], v);
    old[i] = atomicExch(&bits[4], i + 1);
    atomicSub(&ints[0], int(v & 255u));
    unsigned seen = atomicCAS(&seats[i % 16], 0u, i + 1);
    claims[3 * i] = seen == 0u;
    claims[3 * i + 1] = seen;
    atomicXor(&shared[0], int(v));
    int group_seen = atomicCAS(&shared[1], 0, int(t + 1));
    claims[3 * i + 2] = group_seen == 0;
    __syncthreads();
    if (t == 0) {
        group_out[2 * blockIdx.x] = unsigned(shared[0]);
        group_out[2 * blockIdx.x + 1] = unsigned(shared[1]);
    }
}
