// dtype_dispatch.hpp — calls a generic lambda with the C++ type of an rma::Dtype, so code
// over buffer elements is written once: visit_dtype(t, [&]<class T>() { ... }).
#pragma once

#include <cstdint>

#include "rma/types.hpp"

namespace harness::lua {

template <class F>
decltype(auto) visit_dtype(rma::Dtype t, F&& f) {
  using rma::Dtype;
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
  return f.template operator()<std::uint8_t>();
}

}  // namespace harness::lua
