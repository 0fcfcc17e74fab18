#include "oracle/oracle.hpp"

#include <cstring>
#include <type_traits>

#include "rma/dtype_visit.hpp"

namespace harness::oracle {
namespace {

template <class T>
T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}

template <class T>
T wrap_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // Promote to a 64-bit unsigned product: defined for every width, and the low bits are
    // the two's complement product.
    const auto p = static_cast<unsigned long long>(static_cast<std::make_unsigned_t<T>>(a)) *
                   static_cast<unsigned long long>(static_cast<std::make_unsigned_t<T>>(b));
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(p));
  } else {
    return a * b;
  }
}

// MAXLOC and MINLOC as MPI defines them, written apart from the reduce kernels: the larger
// (smaller) value, and on a tie the smaller index.
template <class T>
T combine_pair(rma::Op op, T t, T o) {
  using rma::Op;
  const bool take_o =
      op == Op::maxloc   ? (o.value > t.value || (o.value == t.value && o.index < t.index))
      : op == Op::minloc ? (o.value < t.value || (o.value == t.value && o.index < t.index))
                         : op == Op::replace;
  return take_o ? o : t;
}

template <class T>
T combine(rma::Op op, T t, T o) {
  using rma::Op;
  if constexpr (rma::is_pair_v<T>) {
    return combine_pair(op, t, o);
  } else {
    switch (op) {
      case Op::sum:
        return wrap_add(t, o);
      case Op::prod:
        return wrap_mul(t, o);
      case Op::min:
        return o < t ? o : t;
      case Op::max:
        return o > t ? o : t;
      case Op::replace:
        return o;
      case Op::no_op:
        return t;
      default:
        break;
    }
    if constexpr (std::is_integral_v<T>) {
      switch (op) {
        case Op::band:
          return static_cast<T>(t & o);
        case Op::bor:
          return static_cast<T>(t | o);
        case Op::bxor:
          return static_cast<T>(t ^ o);
        case Op::land:
          return static_cast<T>((t != 0) && (o != 0));
        case Op::lor:
          return static_cast<T>((t != 0) || (o != 0));
        case Op::lxor:
          return static_cast<T>((t != 0) != (o != 0));
        default:
          break;
      }
    }
    return t;  // op not valid for the type: callers reject it before asking
  }
}

}  // namespace

void apply(rma::Op op, rma::Dtype dtype, void* target, const void* origin, std::size_t count) {
  rma::visit_dtype(dtype, [&]<class T>() {
    auto* tp = static_cast<unsigned char*>(target);
    const auto* op_bytes = static_cast<const unsigned char*>(origin);
    for (std::size_t i = 0; i < count; ++i) {
      T t, o;
      std::memcpy(&t, tp + i * sizeof(T), sizeof(T));
      std::memcpy(&o, op_bytes + i * sizeof(T), sizeof(T));
      t = combine<T>(op, t, o);
      std::memcpy(tp + i * sizeof(T), &t, sizeof(T));
    }
  });
}

void compare_and_swap(rma::Dtype dtype, void* target, const void* compare, const void* value) {
  const std::size_t n = rma::size_of(dtype);
  if (std::memcmp(target, compare, n) == 0) std::memcpy(target, value, n);
}

}  // namespace harness::oracle
