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
