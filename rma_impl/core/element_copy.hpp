// element_copy.hpp — where an element's data is: a pair's padding (short_int's two bytes
// after the value, long_int's and double_int's last four) holds no data, so no path writes
// it where data lands (window memory, a result buffer). MPI changes only the bytes a type
// map names; MPICH and Open MPI leave these bytes alone too (lua_scripts/datatypes/pairs/
// pair_padding.lua). Every typed copy that writes, and every layout run that writes, goes
// through here.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "rma/dtype_visit.hpp"
#include "rma/types.hpp"

namespace rma::core {

// True when an element of `t` has bytes no data occupies.
constexpr bool has_padding(Dtype t) {
  return data_size(t) != size_of(t);
}

// Where a pair's data lies in one element, from C's layout of it (rma::Pair): its value,
// then its index, one stretch when nothing lies between them.
template <class P>
struct PairBytes {
  static constexpr std::size_t value_lo = offsetof(P, value);
  static constexpr std::size_t value_hi = value_lo + sizeof(P::value);
  static constexpr std::size_t index_lo = offsetof(P, index);
  static constexpr std::size_t index_hi = index_lo + sizeof(P::index);
  static constexpr bool one_stretch = value_hi == index_lo;
};

// Calls fn(lo, hi) for each stretch [lo, hi) of data bytes inside [from, to), positions
// counted in a stream of `t` elements that starts at 0 (a pair's value, then its index; a
// type without padding is one stretch).
template <class F>
void for_each_data_span(Dtype t, std::uint64_t from, std::uint64_t to, F&& fn) {
  if (!has_padding(t)) {
    if (from < to) fn(from, to);
    return;
  }
  auto clip = [&](std::uint64_t lo, std::uint64_t hi) {
    lo = std::max(lo, from);
    hi = std::min(hi, to);
    if (lo < hi) fn(lo, hi);
  };
  visit_dtype(t, [&]<class P>() {
    if constexpr (is_pair_v<P>) {
      using B = PairBytes<P>;
      for (std::uint64_t e = from - from % sizeof(P); e < to; e += sizeof(P)) {
        if constexpr (B::one_stretch) {
          clip(e + B::value_lo, e + B::index_hi);
        } else {
          clip(e + B::value_lo, e + B::value_hi);
          clip(e + B::index_lo, e + B::index_hi);
        }
      }
    }
  });
}

// Copies N bytes by a copy of a size the compiler knows (a few moves, where memmove of a
// size it does not inline is a call per stretch): read whole, then written, so the two may
// overlap.
template <std::size_t N>
void move_fixed(std::byte* d, const std::byte* s) {
  std::byte held[N];
  std::memcpy(held, s, N);
  std::memcpy(d, held, N);
}

// Copies the data of `n` whole elements of pair type P. An element's source and destination
// may overlap, a later element's source and an earlier one's destination not.
template <class P>
void copy_whole_pairs(std::byte* d, const std::byte* s, std::uint64_t n) {
  using B = PairBytes<P>;
  for (std::uint64_t i = 0; i < n; ++i, d += sizeof(P), s += sizeof(P)) {
    if constexpr (B::one_stretch) {
      move_fixed<B::index_hi - B::value_lo>(d + B::value_lo, s + B::value_lo);
    } else {
      move_fixed<B::value_hi - B::value_lo>(d + B::value_lo, s + B::value_lo);
      move_fixed<B::index_hi - B::index_lo>(d + B::index_lo, s + B::index_lo);
    }
  }
}

// Copies bytes [at, at + n) of a stream of `t` elements from `src` to `dst` (each pointing
// at byte `at` of its stream), data only; the buffers may overlap.
inline void copy_data(void* dst, const void* src, std::size_t n, Dtype t, std::uint64_t at = 0) {
  auto* d = static_cast<std::byte*>(dst);
  const auto* s = static_cast<const std::byte*>(src);
  if (!has_padding(t)) {
    std::memmove(d, s, n);
    return;
  }
  std::vector<std::byte> held;
  if (d > s && d < s + n) {  // a forward walk would read what it wrote
    held.assign(s, s + n);
    s = held.data();
  }
  auto spans = [&](std::uint64_t lo, std::uint64_t hi) {  // part of an element at an end
    for_each_data_span(t, lo, hi, [&](std::uint64_t a, std::uint64_t z) {
      std::memmove(d + (a - at), s + (a - at), z - a);
    });
  };
  const std::uint64_t es = size_of(t), end = at + n;
  const std::uint64_t first = (at + es - 1) / es * es, last = end / es * es;
  if (first >= last) return spans(at, end);
  spans(at, first);
  visit_dtype(t, [&]<class P>() {
    if constexpr (is_pair_v<P>)
      copy_whole_pairs<P>(d + (first - at), s + (first - at), (last - first) / es);
  });
  spans(last, end);
}

}  // namespace rma::core
