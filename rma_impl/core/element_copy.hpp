// element_copy.hpp — where an element's data is: a pair's padding (short_int's two bytes
// after the value, long_int's and double_int's last four) holds no data, so no path writes
// it where data lands (window memory, a result buffer). MPI changes only the bytes a type
// map names; MPICH and Open MPI leave these bytes alone too (lua_scripts/datatypes/pairs/
// pair_padding.lua). Every typed copy and every layout run goes through here.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "rma/types.hpp"

namespace rma::core {

// True when an element of `t` has bytes no data occupies.
constexpr bool has_padding(Dtype t) {
  return data_size(t) != size_of(t);
}

// Calls fn(lo, hi) for each stretch [lo, hi) of data bytes inside [from, to), positions
// counted in a stream of `t` elements that starts at 0 (a pair's value, then its index; a
// type without padding is one stretch).
template <class F>
void for_each_data_span(Dtype t, std::uint64_t from, std::uint64_t to, F&& fn) {
  if (!has_padding(t)) {
    if (from < to) fn(from, to);
    return;
  }
  // short_int: value [0, 2), index [4, 8); long_int, double_int: value and index [0, 12).
  const std::uint64_t es = size_of(t);
  auto clip = [&](std::uint64_t lo, std::uint64_t hi) {
    lo = std::max(lo, from);
    hi = std::min(hi, to);
    if (lo < hi) fn(lo, hi);
  };
  for (std::uint64_t e = from - from % es; e < to; e += es) {
    if (t == Dtype::short_int) {
      clip(e, e + 2);
      clip(e + 4, e + es);
    } else {
      clip(e, e + data_size(t));
    }
  }
}

// Copies bytes [at, at + n) of a stream of `t` elements from `src` to `dst` (each pointing
// at byte `at` of its stream), data only; the buffers may overlap.
inline void copy_data(void* dst, const void* src, std::size_t n, Dtype t, std::uint64_t at = 0) {
  auto* d = static_cast<std::byte*>(dst);
  const auto* s = static_cast<const std::byte*>(src);
  std::vector<std::byte> held;
  if (has_padding(t) && d > s && d < s + n) {  // a forward walk would read what it wrote
    held.assign(s, s + n);
    s = held.data();
  }
  for_each_data_span(t, at, at + n, [&](std::uint64_t lo, std::uint64_t hi) {
    std::memmove(d + (lo - at), s + (lo - at), hi - lo);
  });
}

}  // namespace rma::core
