// 顺序统计: one thread (one block of 1) scans data[start], data[start + step], … and writes (count, sum,
// max, min) to a struct buffer, then adds the count to a running total. Loop count: start 0, step 1,
// 1024 elements.
//@ 扫描入口 = sequential_stats 循环 1024 LDG
struct Stats { unsigned count, sum, max, min; };
struct Config { unsigned start, step; };
extern "C" __global__ void __launch_bounds__(1) sequential_stats(const unsigned *__restrict__ data,
                                                                const Config *__restrict__ config, Stats *stats,
                                                                unsigned *total, unsigned n) {
    if (blockIdx.x * blockDim.x + threadIdx.x == 0) {
        unsigned step = config->step;
        Stats s = {0, 0, 0, 0xffffffffu};
        for (unsigned i = config->start; i < n; i += step) {
            unsigned x = data[i];
            s.count += 1;
            s.sum += x;
            s.max = max(s.max, x);
            s.min = min(s.min, x);
        }
        *stats = s;
        *total += s.count;
    }
}
