// 常量: top-level constants; out[i] = min(in[i] × 2.5 + 0.5, 100) + (256 × 0 + 3 − 3), white[i] = (1,1,1,1) × i + 0.
// Blocks of 64.
//@ 常量入口 = constants
constexpr unsigned kBlockSize = 256u;
constexpr int kLayers = 3;
constexpr float kScale = 2.5f, kOffset = 0.5f, kLimit = 100.0f, kWhite = 1.0f, kZero = 0.0f;
struct Params { float gain, cutoff; };
constexpr Params kDefault{kScale, kLimit};
extern "C" __global__ void __launch_bounds__(64) constants(const float *__restrict__ in, float *out, float4 *white,
                                                          unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        unsigned k = kBlockSize * 0u + unsigned(kLayers) - 3u;
        out[i] = fminf(x * kDefault.gain + kOffset, kDefault.cutoff) + float(k);
        float m = float(i), c = kWhite * m + kZero;
        white[i] = make_float4(c, c, c, c);
    }
}
