// rma/dtype_visit.hpp — the one switch from an rma::Dtype to its C++ element type, so code
// over elements (reduce kernels, direct-path atomics, buffers, the harness's oracle) is
// written once:
//
//   rma::visit_dtype(t, [&]<class T>() { return sizeof(T); });
#pragma once

#include <cstdint>

#include "rma/types.hpp"

namespace rma {

template <class F>
decltype(auto) visit_dtype(Dtype t, F&& f) {
  switch (t) {
    case Dtype::i8: return f.template operator()<std::int8_t>();
    case Dtype::i16: return f.template operator()<std::int16_t>();
    case Dtype::i32: return f.template operator()<std::int32_t>();
    case Dtype::i64: return f.template operator()<std::int64_t>();
    case Dtype::u8: return f.template operator()<std::uint8_t>();
    case Dtype::u16: return f.template operator()<std::uint16_t>();
    case Dtype::u32: return f.template operator()<std::uint32_t>();
    case Dtype::u64: return f.template operator()<std::uint64_t>();
    case Dtype::f32: return f.template operator()<float>();
    case Dtype::f64: return f.template operator()<double>();
  }
  return f.template operator()<std::uint8_t>();  // unreachable: every Dtype is listed
}

}  // namespace rma
