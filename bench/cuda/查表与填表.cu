// 查表与填表: x = in[i]; look-up weights[i % 5] in a constant table; the table (0, x, 2x, 3x) built by a
// loop, its element i % 4 replaced by -1, and its dot product with (1, 2, 3, 4); the vector (x, x, x, x)
// with component i % 4 zeroed; record i's table with element i % 4 replaced by x, written back with id i.
// Blocks of 64. Small arrays are replaced element by element with a compare against the runtime index,
// not written through it (that would put them in local memory); nvcc unrolls the 4-round loops.
//@ 查表与填表入口 = tables
__constant__ float weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
struct Record { unsigned id; float table[4]; };
__device__ float dot_table(const float (&a)[4], const float (&b)[4]) {
    float sum = 0.0f;
    for (unsigned k = 0; k < 4; ++k) sum += a[k] * b[k];
    return sum;
}
extern "C" __global__ void __launch_bounds__(64) tables(const float *__restrict__ in, float4 *filled, float4 *vectors,
                                                       float2 *looked, Record *records) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    float look = weights[i % 5];
    unsigned j = i % 4;
    float t[4];
    for (unsigned k = 0; k < 4; ++k) t[k] = k == j ? -1.0f : x * float(k);
    float4 v = make_float4(j == 0 ? 0.0f : x, j == 1 ? 0.0f : x, j == 2 ? 0.0f : x, j == 3 ? 0.0f : x);
    const float ramp[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    filled[i] = make_float4(t[0], t[1], t[2], t[3]);
    vectors[i] = v;
    looked[i] = make_float2(look, dot_table(t, ramp));
    Record r = records[i];
    r.id = i;
    for (unsigned k = 0; k < 4; ++k)
        if (k == j) r.table[k] = x;
    records[i] = r;
}
