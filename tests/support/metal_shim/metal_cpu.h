// Runs compute kernels written against the metal_stdlib shim on the CPU, the
// Linux stand-in for dispatching them on a Metal device.
//
// A threadgroup is one OS thread per invocation.  threadgroup_barrier is a real
// barrier over the group's live invocations; threadgroup memory is one object per
// group, filled with a garbage pattern (Metal does not clear it); SIMD-groups are
// 32 consecutive invocations that exchange values through a barrier of their own.
// A SIMD-group matrix is held whole by every invocation (see metal_stdlib), so its
// load and multiply need no exchange; a store writes each lane's own two elements.
// An invocation that returns leaves every barrier, as an inactive SIMD lane does.
// Groups run one after another.  Buffers come from files and go back to them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace metal_cpu {
using os_thread = std::thread;   // metal_stdlib defines `thread` away (an address space)
}

#include <metal_stdlib>
// Included here, outside the namespace each kernel source is compiled in, so that a source's own
// #include of them (tensor fragments, seed 着十三) finds them already declared.
#include <metal_tensor>
#include <MetalPerformancePrimitives/MetalPerformancePrimitives.h>

namespace metal_cpu {

using metal::uint;
using metal::uint3;

// Waits until every live participant arrived; a participant that leaves stops counting.
class Barrier {
 public:
  explicit Barrier(int participants) : expected_(participants) {}

  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    unsigned long generation = generation_;
    if (++arrived_ == expected_) {
      release();
      return;
    }
    wake_.wait(lock, [&] { return generation != generation_; });
  }

  void leave() {
    std::unique_lock<std::mutex> lock(mutex_);
    --expected_;
    if (arrived_ > 0 && arrived_ == expected_) release();
  }

 private:
  void release() {
    arrived_ = 0;
    ++generation_;
    wake_.notify_all();
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  int expected_;
  int arrived_ = 0;
  unsigned long generation_ = 0;
};

constexpr uint simd_width = 32;

struct SimdGroup {
  explicit SimdGroup(int lanes) : barrier(lanes) {
    for (auto& a : active) a = false;
    for (int i = 0; i < lanes; ++i) active[i] = true;
  }
  Barrier barrier;
  unsigned long long value[simd_width] = {};
  std::atomic<bool> active[simd_width];
};

struct Group {
  explicit Group(uint size) : barrier(int(size)), size(size) {
    for (uint first = 0; first < size; first += simd_width)
      simd.emplace_back(new SimdGroup(int(size - first < simd_width ? size - first : simd_width)));
  }
  Barrier barrier;
  uint size;
  std::vector<std::unique_ptr<SimdGroup>> simd;
  std::mutex memory_lock;
  std::map<int, std::unique_ptr<unsigned char[]>> memory;
};

struct Invocation {
  Group* group = nullptr;
  uint index = 0;
};
inline thread_local Invocation current;

// The builtin inputs of one invocation, named after their Metal attributes.
struct Thread {
  uint3 thread_position_in_grid;
  uint3 thread_position_in_threadgroup;
  uint thread_index_in_threadgroup;
  uint3 threadgroup_position_in_grid;
  uint3 threadgroups_per_grid;
  uint thread_index_in_simdgroup;
  uint threads_per_simdgroup;
  uint simdgroup_index_in_threadgroup;
  uint simdgroups_per_threadgroup;
};

// The group's one instance of a threadgroup variable (`threadgroup T 名;`).
template <class T> T& threadgroup_storage(int id) {
  Group& g = *current.group;
  std::lock_guard<std::mutex> lock(g.memory_lock);
  auto& block = g.memory[id];
  if (!block) {
    block.reset(new unsigned char[sizeof(T) + alignof(T)]);
    std::memset(block.get(), 0xA5, sizeof(T) + alignof(T));
  }
  void* p = block.get();
  std::size_t space = sizeof(T) + alignof(T);
  return *static_cast<T*>(std::align(alignof(T), sizeof(T), p, space));
}

inline void dispatch(uint3 groups, uint3 shape, const std::function<void(const Thread&)>& body) {
  const uint size = shape.x * shape.y * shape.z;
  for (uint gz = 0; gz < groups.z; ++gz)
    for (uint gy = 0; gy < groups.y; ++gy)
      for (uint gx = 0; gx < groups.x; ++gx) {
        Group group(size);
        std::vector<os_thread> invocations;
        for (uint i = 0; i < size; ++i) {
          invocations.emplace_back([&, i] {
            current = Invocation{&group, i};
            const uint3 local(i % shape.x, i / shape.x % shape.y, i / (shape.x * shape.y));
            Thread t{uint3(gx * shape.x + local.x, gy * shape.y + local.y, gz * shape.z + local.z), local, i,
                     uint3(gx, gy, gz), groups,
                     i % simd_width, simd_width, i / simd_width, (size + simd_width - 1) / simd_width};
            body(t);
            SimdGroup& simd = *group.simd[i / simd_width];
            simd.active[i % simd_width] = false;
            simd.barrier.leave();
            group.barrier.leave();
          });
        }
        for (auto& t : invocations) t.join();
      }
}

// Buffers by Metal slot, read from files named on the command line as slot=path.
class Buffers {
 public:
  Buffers(int argc, char** argv) {
    for (int i = 0; i < argc; ++i) {
      std::string arg = argv[i];
      auto eq = arg.find('=');
      int slot = std::atoi(arg.substr(0, eq).c_str());
      paths_[slot] = arg.substr(eq + 1);
      std::FILE* f = std::fopen(paths_[slot].c_str(), "rb");
      if (!f) fail("cannot read " + paths_[slot]);
      std::fseek(f, 0, SEEK_END);
      long size = std::ftell(f);
      std::fseek(f, 0, SEEK_SET);
      sizes_[slot] = std::size_t(size);
      data_[slot].reset(static_cast<unsigned char*>(std::aligned_alloc(64, (std::size_t(size) + 64) / 64 * 64)));
      if (size && std::fread(data_[slot].get(), 1, std::size_t(size), f) != std::size_t(size)) fail("short read");
      std::fclose(f);
    }
  }
  void* at(int slot) {
    auto it = data_.find(slot);
    if (it == data_.end()) fail("no buffer at slot " + std::to_string(slot));
    return it->second.get();
  }
  void write_back() {
    for (auto& [slot, path] : paths_) {
      std::FILE* f = std::fopen(path.c_str(), "wb");
      if (!f || std::fwrite(data_[slot].get(), 1, sizes_[slot], f) != sizes_[slot]) fail("cannot write " + path);
      std::fclose(f);
    }
  }

 private:
  struct Free {
    void operator()(unsigned char* p) const { std::free(p); }
  };
  [[noreturn]] static void fail(const std::string& why) {
    std::fprintf(stderr, "metal_cpu: %s\n", why.c_str());
    std::exit(2);
  }
  std::map<int, std::string> paths_;
  std::map<int, std::size_t> sizes_;
  std::map<int, std::unique_ptr<unsigned char, Free>> data_;
};

// A texture from a buffer file: width, height, layers (depth, array size, faces or
// samples; 0 is one), an unused word, then the texels.
template <class Texture> Texture texture_at(void* p) {
  uint* header = static_cast<uint*>(p);   // a storage texture's texels are written
  Texture t;
  t.width = header[0];
  t.height = header[1];
  t.layers = header[2];
  t.data = reinterpret_cast<decltype(t.data)>(header + 4);
  return t;
}

// A sampler's two words: 1 for a linear filter, and its comparison function (0: none given).
inline metal::sampler sampler_at(void* p) {
  const uint* words = static_cast<const uint*>(p);
  return metal::sampler{words[0] != 0, words[1]};
}

using Runner = void (*)(Buffers&, uint3);

// runner KERNEL GX GY GZ slot=path …
inline int main(int argc, char** argv, const std::map<std::string, Runner>& kernels) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s KERNEL GX GY GZ slot=path ...\n", argv[0]);
    return 2;
  }
  auto chosen = kernels.find(argv[1]);
  if (chosen == kernels.end()) {
    std::fprintf(stderr, "metal_cpu: no kernel %s\n", argv[1]);
    return 2;
  }
  Buffers buffers(argc - 5, argv + 5);
  chosen->second(buffers, uint3(uint(std::atoi(argv[2])), uint(std::atoi(argv[3])), uint(std::atoi(argv[4]))));
  buffers.write_back();
  return 0;
}

}  // namespace metal_cpu

namespace metal::detail {
void barrier() { metal_cpu::current.group->barrier.arrive_and_wait(); }

uint simd_lane() { return metal_cpu::current.index % metal_cpu::simd_width; }

uint threadgroup_index() { return metal_cpu::current.index; }

uint threadgroup_size() { return metal_cpu::current.group->size; }

void simd_exchange(unsigned long long mine, simd_lanes& out) {
  using namespace metal_cpu;
  SimdGroup& simd = *current.group->simd[current.index / simd_width];
  out.lane = current.index % simd_width;
  simd.value[out.lane] = mine;
  simd.barrier.arrive_and_wait();
  for (uint i = 0; i < simd_width; ++i) {
    out.value[i] = simd.value[i];
    out.active[i] = simd.active[i];
  }
  simd.barrier.arrive_and_wait();
}
}  // namespace metal::detail
