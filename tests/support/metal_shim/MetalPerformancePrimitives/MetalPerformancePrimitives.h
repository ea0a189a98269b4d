// A Linux stand-in for Metal Performance Primitives' matmul2d (Metal 4 tensor operations), the
// subset the MSL back end writes for tensor fragments (seed 着十三).
//
// matmul2d_descriptor(m, n, k, transpose_left, transpose_right, relaxed_precision, mode) describes
// destination (m × n) = left (m × k) · right (k × n) [+ destination].  In tensor terms (extent 0
// inner): the left tensor has extents (k, m), or (m, k) when transposed; the right one (n, k), or
// (k, n) when transposed; the destination (n, m).  Reads outside a tensor's extents give zero, and a
// store writes only the elements inside the destination's extents (that is how ragged edges clip).
//
// matmul2d<descriptor, execution_simdgroups<N>> runs on N SIMD-groups together: the whole threadgroup
// must have exactly 32 · N invocations and call every operation together.  Its destination cooperative
// tensor spreads the m × n elements over those invocations: invocation t holds m · n / (32 · N)
// elements, its element i being element i · 32N + t of the destination in row-major order.  A
// cooperative tensor is private to its invocation: element access, `run` and `store` touch only the
// caller's own elements, so each invocation computes its share exactly, in float, and no two store
// the same element.  Here `matmul2d`'s template parameter is a reference to a constexpr descriptor
// (C++17 has no class-type template parameters); the back end always names a constexpr variable.
#pragma once

#include <metal_tensor>

namespace metal {
template <int N> struct execution_simdgroups {
  static_assert(N > 0, "at least one SIMD-group");
  static constexpr int simdgroups = N;
};
namespace detail {
uint threadgroup_index();   // the caller's index in its threadgroup, from the CPU runtime (metal_cpu.h)
uint threadgroup_size();
}  // namespace detail
}  // namespace metal

namespace mpp::tensor_ops {

struct matmul2d_descriptor {
  enum class mode { multiply, multiply_accumulate };
  int m, n, k;
  bool transpose_left, transpose_right, relaxed_precision;
  mode matmul_mode;
  constexpr matmul2d_descriptor(int m, int n, int k, bool transpose_left, bool transpose_right,
                                bool relaxed_precision, mode matmul_mode)
      : m(m), n(n), k(k), transpose_left(transpose_left), transpose_right(transpose_right),
        relaxed_precision(relaxed_precision), matmul_mode(matmul_mode) {}
};

template <const matmul2d_descriptor& D, class Scope> struct matmul2d;

// The destination of a matmul2d: this invocation's share of the m × n elements.
template <const matmul2d_descriptor& D, int Threads, class T> struct destination_cooperative_tensor {
  static_assert(D.m * D.n % Threads == 0, "the destination divides evenly among the invocations");
  static constexpr int capacity = D.m * D.n / Threads;

  destination_cooperative_tensor() : owner_(metal::detail::threadgroup_index()) {
    for (int i = 0; i < capacity; ++i) e_[i] = T(0);
  }
  constexpr unsigned short get_capacity() const { return capacity; }
  bool is_valid_element(unsigned short i) const { return i < capacity; }
  T& operator[](unsigned short i) { return e_[checked(i)]; }
  const T& operator[](unsigned short i) const { return e_[checked(i)]; }

  // (row, column) of element i in the destination
  int row(int i) const { return (i * Threads + int(owner_)) / D.n; }
  int column(int i) const { return (i * Threads + int(owner_)) % D.n; }

  // Writes this invocation's elements that lie inside the tensor's extents (n inner, m outer).
  template <class Tensor> void store(const Tensor& t) const {
    mine();
    for (int i = 0; i < capacity; ++i)
      if (column(i) < t.get_extent(0) && row(i) < t.get_extent(1)) t.at(column(i), row(i)) = e_[i];
  }

  void mine() const {
    if (metal::detail::threadgroup_index() != owner_) __builtin_trap();   // handed to another invocation
  }

 private:
  int checked(unsigned short i) const {
    mine();
    if (i >= capacity) __builtin_trap();
    return i;
  }
  unsigned owner_;
  T e_[capacity];
};

template <const matmul2d_descriptor& D, int N> struct matmul2d<D, metal::execution_simdgroups<N>> {
  static constexpr int threads = 32 * N;

  template <class Left, class Right, class T>
  destination_cooperative_tensor<D, threads, T> get_destination_cooperative_tensor() const {
    static_assert(std::is_same_v<T, float>, "the shim models float destinations only");
    require_threadgroup();
    return {};
  }

  // destination += (or =) left · right, for this invocation's elements.
  template <class Left, class Right, class T>
  void run(const Left& left, const Right& right, destination_cooperative_tensor<D, threads, T>& d) const {
    require_threadgroup();
    d.mine();
    for (int i = 0; i < d.get_capacity(); ++i) {
      int r = d.row(i), c = d.column(i);
      float sum = D.matmul_mode == matmul2d_descriptor::mode::multiply_accumulate ? float(d[i]) : 0.0f;
      for (int k = 0; k < D.k; ++k)
        sum += element(left, D.transpose_left ? r : k, D.transpose_left ? k : r) *
               element(right, D.transpose_right ? k : c, D.transpose_right ? c : k);
      d[i] = T(sum);
    }
  }

 private:
  template <class Tensor> static float element(const Tensor& t, int inner, int outer) {
    return inner < t.get_extent(0) && outer < t.get_extent(1) ? float(t.at(inner, outer)) : 0.0f;
  }
  static void require_threadgroup() {
    if (metal::detail::threadgroup_size() != metal::uint(threads)) __builtin_trap();   // every SIMD-group, together
  }
};

}  // namespace mpp::tensor_ops
