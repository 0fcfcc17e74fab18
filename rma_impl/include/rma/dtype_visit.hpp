// rma/dtype_visit.hpp — the one switch from an rma::Dtype to its C++ element type, so code
// over elements (reduce kernels, direct-path atomics, buffers, the harness's oracle) is
// written once:
//
//   rma::visit_dtype(t, [&]<class T>() { return sizeof(T); });
#pragma once

#include <cstdint>

#include "rma/types.hpp"

namespace rma {

// An element of a pair dtype, laid out as C lays out {value; int index}.
template <class V>
struct Pair {
  V value;
  std::int32_t index;
};
// The pair dtypes' sizes (types.hpp) are these structs' on every ABI we build for; code that
// steps through pairs by sizeof relies on it.
static_assert(sizeof(Pair<std::int16_t>) == size_of(Dtype::short_int) &&
              sizeof(Pair<std::int32_t>) == size_of(Dtype::int2) &&
              sizeof(Pair<std::int64_t>) == size_of(Dtype::long_int) &&
              sizeof(Pair<float>) == size_of(Dtype::float_int) &&
              sizeof(Pair<double>) == size_of(Dtype::double_int));
template <class T>
inline constexpr bool is_pair_v = false;
template <class V>
inline constexpr bool is_pair_v<Pair<V>> = true;

template <class F>
decltype(auto) visit_dtype(Dtype t, F&& f) {
  switch (t) {
    case Dtype::i8:
      return f.template operator()<std::int8_t>();
    case Dtype::i16:
      return f.template operator()<std::int16_t>();
    case Dtype::i32:
      return f.template operator()<std::int32_t>();
    case Dtype::i64:
      return f.template operator()<std::int64_t>();
    case Dtype::u8:
      return f.template operator()<std::uint8_t>();
    case Dtype::u16:
      return f.template operator()<std::uint16_t>();
    case Dtype::u32:
      return f.template operator()<std::uint32_t>();
    case Dtype::u64:
      return f.template operator()<std::uint64_t>();
    case Dtype::f32:
      return f.template operator()<float>();
    case Dtype::f64:
      return f.template operator()<double>();
    case Dtype::int2:
      return f.template operator()<Pair<std::int32_t>>();
    case Dtype::short_int:
      return f.template operator()<Pair<std::int16_t>>();
    case Dtype::long_int:
      return f.template operator()<Pair<std::int64_t>>();
    case Dtype::float_int:
      return f.template operator()<Pair<float>>();
    case Dtype::double_int:
      return f.template operator()<Pair<double>>();
  }
  return f.template operator()<std::uint8_t>();  // unreachable: every Dtype is listed
}

}  // namespace rma
