// The reduce kernels (core/reduce.hpp): one switch on dtype and op per call, then a loop
// specialised for that element type and op.
#include "core/reduce.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "rma/dtype_visit.hpp"

namespace rma::core {
namespace {

// Integer arithmetic is done in an unsigned type so that it wraps instead of overflowing.
// Types narrower than unsigned int would be promoted to (signed) int, where 65535 * 65535
// overflows, hence unsigned int at least. The conversion back to a signed T is modular
// since C++20.
template <class T>
using Wrap = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

struct Sum {
  template <class T>
  requires std::is_arithmetic_v<T> T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return a + b;
    } else {
      return static_cast<T>(static_cast<Wrap<T>>(a) + static_cast<Wrap<T>>(b));
    }
  }
};

struct Prod {
  template <class T>
  requires std::is_arithmetic_v<T> T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      return a * b;
    } else {
      return static_cast<T>(static_cast<Wrap<T>>(a) * static_cast<Wrap<T>>(b));
    }
  }
};

// Written as a select the compiler maps to min/max instructions; with a NaN operand the
// target keeps its value (MPI leaves NaN handling unspecified).
struct Min {
  template <class T>
  requires std::is_arithmetic_v<T> T operator()(T a, T b) const { return b < a ? b : a; }
};

struct Max {
  template <class T>
  requires std::is_arithmetic_v<T> T operator()(T a, T b) const { return a < b ? b : a; }
};

// Bitwise and logical ops exist for integers only, so that the dispatcher can ask whether a
// functor is callable instead of keeping a second copy of op_valid_for's rule.
struct Band {
  template <std::integral T>
  T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};

struct Bor {
  template <std::integral T>
  T operator()(T a, T b) const {
    return static_cast<T>(a | b);
  }
};

struct Bxor {
  template <std::integral T>
  T operator()(T a, T b) const {
    return static_cast<T>(a ^ b);
  }
};

struct Land {
  template <std::integral T>
  T operator()(T a, T b) const {
    return static_cast<T>(a != 0 && b != 0);
  }
};

struct Lor {
  template <std::integral T>
  T operator()(T a, T b) const {
    return static_cast<T>(a != 0 || b != 0);
  }
};

struct Lxor {
  template <std::integral T>
  T operator()(T a, T b) const {
    return static_cast<T>((a != 0) != (b != 0));
  }
};

// MPI's MAXLOC and MINLOC: the larger (smaller) value with its index; on equal values the
// smaller index.
struct MaxLoc {
  template <class T>
  requires is_pair_v<T> T operator()(T a, T b) const {
    if (a.value != b.value) return a.value < b.value ? b : a;
    return b.index < a.index ? b : a;
  }
};

struct MinLoc {
  template <class T>
  requires is_pair_v<T> T operator()(T a, T b) const {
    if (a.value != b.value) return b.value < a.value ? b : a;
    return b.index < a.index ? b : a;
  }
};

struct Replace {
  template <class T>
  T operator()(T, T b) const {
    return b;
  }
};

// Writes one element: a pair's value and index, never its padding (element_copy.hpp).
template <class T>
inline void store(std::byte* to, const T& v) {
  if constexpr (is_pair_v<T>) {
    std::memcpy(to + offsetof(T, value), &v.value, sizeof v.value);
    std::memcpy(to + offsetof(T, index), &v.index, sizeof v.index);
  } else {
    std::memcpy(to, &v, sizeof(T));
  }
}

// One element: inputs are read before anything is written, so this is correct however the
// buffers overlap (result == origin, origin == target, ...).
template <class T, bool kFetch, class F>
inline void element(F f, std::byte* target, const std::byte* origin, std::byte* result) {
  T a;
  T b;
  std::memcpy(&a, target, sizeof(T));
  std::memcpy(&b, origin, sizeof(T));
  if constexpr (kFetch) store(result, a);
  a = f(a, b);
  store(target, a);
}

// N elements whose buffers are known not to overlap. The fixed trip count and the restrict
// promise let GCC vectorise even at -O2, whose cost model refuses loops that need run-time
// alias checks or a scalar epilogue; memcpy keeps any alignment legal and compiles to plain
// (unaligned) loads and stores.
template <class T, std::size_t N, bool kFetch, class F>
inline void block(F f, std::byte* __restrict target, const std::byte* __restrict origin,
                  std::byte* __restrict result) {
  for (std::size_t j = 0; j < N; ++j) {
    T a;
    T b;
    std::memcpy(&a, target + j * sizeof(T), sizeof(T));
    std::memcpy(&b, origin + j * sizeof(T), sizeof(T));
    if constexpr (kFetch) store(result + j * sizeof(T), a);
    a = f(a, b);
    store(target + j * sizeof(T), a);
  }
}

// 256 bytes per block (32 i64): amortises the outer loop; smaller blocks measured no faster.
constexpr std::size_t kBlockBytes = 256;

bool overlap(const std::byte* p, const std::byte* q, std::size_t bytes) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const auto b = reinterpret_cast<std::uintptr_t>(q);
  return a < b + bytes && b < a + bytes;
}

template <class T, bool kFetch, class F>
void apply(F f, std::byte* target, const std::byte* origin, std::byte* result, std::size_t count) {
  const std::size_t bytes = count * sizeof(T);
  const bool disjoint =
      !overlap(target, origin, bytes) &&
      !(kFetch && (overlap(result, target, bytes) || overlap(result, origin, bytes)));
  if (!disjoint) {
    // Callers that reuse a buffer: rare, so correctness over speed.
    for (std::size_t i = 0; i < count; ++i, target += sizeof(T), origin += sizeof(T)) {
      element<T, kFetch>(f, target, origin, result);
      if constexpr (kFetch) result += sizeof(T);
    }
    return;
  }
  constexpr std::size_t kBlock = kBlockBytes / sizeof(T);
  constexpr std::size_t kStride = kBlock * sizeof(T);
  std::size_t i = 0;
  for (; i + kBlock <= count; i += kBlock) {
    block<T, kBlock, kFetch>(f, target, origin, result);
    target += kStride;
    origin += kStride;
    if constexpr (kFetch) result += kStride;
  }
  for (; i < count; ++i) {
    element<T, kFetch>(f, target, origin, result);
    target += sizeof(T);
    origin += sizeof(T);
    if constexpr (kFetch) result += sizeof(T);
  }
}

template <class T, bool kFetch, class F>
Status apply_if_defined(F f, Op op, std::byte* target, const std::byte* origin, std::byte* result,
                        std::size_t count) {
  if constexpr (std::is_invocable_v<const F&, T, T>) {
    apply<T, kFetch>(f, target, origin, result, count);
    return Status::ok();
  } else {
    // Only reachable if op_valid_for allows an op this file has no integer-only functor for.
    return Status(ErrorClass::intern, "reduce: no kernel for " + std::string(to_string(op)));
  }
}

template <class T, bool kFetch>
Status run_op(Op op, std::byte* target, const std::byte* origin, std::byte* result,
              std::size_t count) {
  switch (op) {
    case Op::sum:
      return apply_if_defined<T, kFetch>(Sum{}, op, target, origin, result, count);
    case Op::prod:
      return apply_if_defined<T, kFetch>(Prod{}, op, target, origin, result, count);
    case Op::min:
      return apply_if_defined<T, kFetch>(Min{}, op, target, origin, result, count);
    case Op::max:
      return apply_if_defined<T, kFetch>(Max{}, op, target, origin, result, count);
    case Op::band:
      return apply_if_defined<T, kFetch>(Band{}, op, target, origin, result, count);
    case Op::bor:
      return apply_if_defined<T, kFetch>(Bor{}, op, target, origin, result, count);
    case Op::bxor:
      return apply_if_defined<T, kFetch>(Bxor{}, op, target, origin, result, count);
    case Op::land:
      return apply_if_defined<T, kFetch>(Land{}, op, target, origin, result, count);
    case Op::lor:
      return apply_if_defined<T, kFetch>(Lor{}, op, target, origin, result, count);
    case Op::lxor:
      return apply_if_defined<T, kFetch>(Lxor{}, op, target, origin, result, count);
    case Op::replace:
      return apply_if_defined<T, kFetch>(Replace{}, op, target, origin, result, count);
    case Op::no_op:
      if constexpr (kFetch && is_pair_v<T>) {
        for (std::size_t i = 0; i < count; ++i) {
          T a;
          std::memcpy(&a, target + i * sizeof(T), sizeof(T));
          store(result + i * sizeof(T), a);
        }
      } else if constexpr (kFetch) {
        std::memcpy(result, target, count * sizeof(T));
      }
      return Status::ok();
    case Op::maxloc:
      return apply_if_defined<T, kFetch>(MaxLoc{}, op, target, origin, result, count);
    case Op::minloc:
      return apply_if_defined<T, kFetch>(MinLoc{}, op, target, origin, result, count);
  }
  return Status(ErrorClass::op, "unknown op " + std::to_string(static_cast<int>(op)));
}

static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559);
static_assert(sizeof(double) == 8 && std::numeric_limits<double>::is_iec559);

template <bool kFetch>
Status run(Op op, Dtype dtype, std::byte* target, const std::byte* origin, std::byte* result,
           std::size_t count) {
  return visit_dtype(
      dtype, [&]<class T>() { return run_op<T, kFetch>(op, target, origin, result, count); });
}

// Enum values come off the wire, so out-of-range ones are checked before to_string sees them.
Status check_op_dtype(Op op, Dtype dtype) {
  if (static_cast<int>(dtype) >= dtype_count)
    return Status(ErrorClass::type, "unknown dtype " + std::to_string(static_cast<int>(dtype)));
  if (static_cast<int>(op) >= op_count)
    return Status(ErrorClass::op, "unknown op " + std::to_string(static_cast<int>(op)));
  if (!op_valid_for(op, dtype)) {
    std::string msg(to_string(op));
    msg += " is not defined for ";
    msg += to_string(dtype);
    return Status(ErrorClass::op, std::move(msg));
  }
  return Status::ok();
}

Status null_buffer(const char* call, const char* which) {
  return Status(ErrorClass::buffer, std::string(call) + ": " + which + " buffer is null");
}

template <class T>
void cas(void* target, const void* compare, const void* value, void* result) {
  T old;
  T cmp;
  T val;
  std::memcpy(&old, target, sizeof(T));
  std::memcpy(&cmp, compare, sizeof(T));
  std::memcpy(&val, value, sizeof(T));
  if (old == cmp) std::memcpy(target, &val, sizeof(T));
  std::memcpy(result, &old, sizeof(T));
}

}  // namespace

Status reduce(Op op, Dtype dtype, void* target, const void* origin, std::size_t count) {
  RMA_TRY(check_op_dtype(op, dtype));
  if (count == 0 || op == Op::no_op) return Status::ok();
  if (target == nullptr) return null_buffer("reduce", "target");
  if (origin == nullptr) return null_buffer("reduce", "origin");
  return run<false>(op, dtype, static_cast<std::byte*>(target),
                    static_cast<const std::byte*>(origin), nullptr, count);
}

Status fetch_reduce(Op op, Dtype dtype, void* target, const void* origin, void* result,
                    std::size_t count) {
  RMA_TRY(check_op_dtype(op, dtype));
  if (count == 0) return Status::ok();
  if (target == nullptr) return null_buffer("fetch_reduce", "target");
  if (result == nullptr) return null_buffer("fetch_reduce", "result");
  if (origin == nullptr && op != Op::no_op) return null_buffer("fetch_reduce", "origin");
  return run<true>(op, dtype, static_cast<std::byte*>(target),
                   static_cast<const std::byte*>(origin), static_cast<std::byte*>(result), count);
}

Status compare_and_swap(Dtype dtype, void* target, const void* compare, const void* value,
                        void* result) {
  if (static_cast<int>(dtype) >= dtype_count)
    return Status(ErrorClass::type, "unknown dtype " + std::to_string(static_cast<int>(dtype)));
  if (is_float(dtype)) {
    return Status(ErrorClass::type, "compare_and_swap is not defined for " +
                                        std::string(to_string(dtype)) + " (integer types only)");
  }
  if (target == nullptr) return null_buffer("compare_and_swap", "target");
  if (compare == nullptr) return null_buffer("compare_and_swap", "compare");
  if (value == nullptr) return null_buffer("compare_and_swap", "value");
  if (result == nullptr) return null_buffer("compare_and_swap", "result");
  // Integers compare equal exactly when their bytes do, so the width is all that matters.
  switch (size_of(dtype)) {
    case 1:
      cas<std::uint8_t>(target, compare, value, result);
      break;
    case 2:
      cas<std::uint16_t>(target, compare, value, result);
      break;
    case 4:
      cas<std::uint32_t>(target, compare, value, result);
      break;
    case 8:
      cas<std::uint64_t>(target, compare, value, result);
      break;
    default:
      return Status(ErrorClass::intern, "compare_and_swap: unexpected element size");
  }
  return Status::ok();
}

}  // namespace rma::core
