// layout.hpp — walks the layouts of one communication call in step: the origin's, the
// target's and, for get_accumulate, the result's (count, type), which share one signature.
// Each step is a piece that is contiguous on every side and of one basic type, so any path
// can move it as it moves a plain op: the generic layer hands the table one op per piece.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "core/element_copy.hpp"
#include "rma/datatype.hpp"
#include "rma/status.hpp"

namespace rma::core {

// A contiguous run of `count` elements of `dtype`, at byte `at[k]` of side k's buffer.
struct Piece {
  static constexpr int max_sides = 3;
  std::int64_t at[max_sides]{};
  std::uint64_t count = 0;
  Dtype dtype = Dtype::u8;
};

// Where one layout is: instance, run, and elements of the run already passed.
class LayoutCursor {
 public:
  explicit LayoutCursor(const Layout& l) : l_(&l), runs_(l.type->blocks().size()) {}
  bool at_end() const { return runs_ == 0 || inst_ >= l_->count; }
  const TypeBlock& run() const { return l_->type->blocks()[run_]; }
  std::uint64_t left() const { return run().count - done_; }
  std::int64_t offset() const {
    return static_cast<std::int64_t>(inst_) * l_->type->extent() + run().offset +
           static_cast<std::int64_t>(done_ * size_of(run().dtype));
  }
  void advance(std::uint64_t n) {
    done_ += n;
    if (done_ < run().count) return;
    done_ = 0;
    if (++run_ == runs_) run_ = 0, ++inst_;
  }

 private:
  const Layout* l_;
  std::size_t runs_;
  std::uint64_t inst_ = 0;
  std::size_t run_ = 0;
  std::uint64_t done_ = 0;
};

// Calls fn(const Piece&) -> Status for each maximal piece of `sides` (1 to 3 layouts with
// the same signature, checked by the caller), in signature order; stops at the first error.
template <class F>
Status for_each_piece(std::span<const Layout* const> sides, F&& fn) {
  const std::size_t n = std::min<std::size_t>(sides.size(), Piece::max_sides);
  LayoutCursor cur[Piece::max_sides] = {LayoutCursor(*sides[0]), LayoutCursor(*sides[0]),
                                        LayoutCursor(*sides[0])};
  for (std::size_t k = 1; k < n; ++k) cur[k] = LayoutCursor(*sides[k]);
  Piece pending;
  auto continues = [&](const Piece& p) {
    if (!pending.count || p.dtype != pending.dtype) return false;
    const auto len = static_cast<std::int64_t>(pending.count * size_of(pending.dtype));
    for (std::size_t k = 0; k < n; ++k)
      if (pending.at[k] + len != p.at[k]) return false;
    return true;
  };
  while (!cur[0].at_end()) {
    Piece p;
    p.dtype = cur[0].run().dtype;
    p.count = cur[0].left();
    for (std::size_t k = 1; k < n; ++k) {
      if (cur[k].at_end()) return Status::ok();  // shorter signature: the caller checked them equal
      p.count = std::min(p.count, cur[k].left());
    }
    for (std::size_t k = 0; k < n; ++k) {
      p.at[k] = cur[k].offset();
      cur[k].advance(p.count);
    }
    if (continues(p)) {
      pending.count += p.count;
      continue;
    }
    if (pending.count) RMA_TRY(fn(static_cast<const Piece&>(pending)));
    pending = p;
  }
  if (pending.count) RMA_TRY(fn(static_cast<const Piece&>(pending)));
  return Status::ok();
}

}  // namespace rma::core

namespace rma::core {

// The runs of `l` that hold bytes [from, from + len) of its packed stream (its data in
// signature order): fn(at, pos, n, dtype, within) for each, `at` the run's byte offset in the
// layout's memory, `pos` its offset in the stream, `n` its bytes, `dtype` its elements' and
// `within` how far into the run it starts (a rendezvous fragment may start inside one).
template <class F>
void for_each_typed_run(const Layout& l, std::uint64_t from, std::uint64_t len, F&& fn) {
  const Datatype& t = *l.type;
  if (t.packed_size() == 0 || len == 0) return;
  const std::uint64_t end = from + len;
  const auto& runs = t.blocks();
  std::uint64_t inst = from / t.packed_size();
  // The run holding byte `from` of its instance: the last whose stream position is <= it.
  auto first = std::upper_bound(runs.begin(), runs.end(), from - inst * t.packed_size(),
                                [](std::uint64_t p, const TypeBlock& b) { return p < b.pos; });
  std::size_t r = static_cast<std::size_t>(first - runs.begin()) - 1;
  for (; inst < l.count; ++inst, r = 0) {
    const std::uint64_t base = inst * t.packed_size();
    const std::int64_t shift = static_cast<std::int64_t>(inst) * t.extent();
    for (; r < runs.size(); ++r) {
      const TypeBlock& b = runs[r];
      const std::uint64_t pos = base + b.pos, n = b.count * size_of(b.dtype);
      if (pos >= end) return;
      const std::uint64_t lo = std::max(pos, from), hi = std::min(pos + n, end);
      if (lo >= hi) continue;
      fn(shift + b.offset + static_cast<std::int64_t>(lo - pos), lo, hi - lo, b.dtype, lo - pos);
    }
  }
}

// The same runs as fn(at, pos, n). A copy that writes takes `RunBytes::data`: a pair run then
// comes in pieces that leave out its padding (element_copy.hpp); a reduction, which needs
// whole elements and writes only their data itself, and a read take `RunBytes::whole`.
// Rendezvous fragments and whole ops alike are applied this way.
enum class RunBytes { data, whole };
template <class F>
void for_each_run(const Layout& l, std::uint64_t from, std::uint64_t len, RunBytes bytes, F&& fn) {
  for_each_typed_run(
      l, from, len,
      [&](std::int64_t at, std::uint64_t pos, std::uint64_t n, Dtype t, std::uint64_t within) {
        if (bytes == RunBytes::whole || !has_padding(t)) return fn(at, pos, n);
        for_each_data_span(t, within, within + n, [&](std::uint64_t a, std::uint64_t z) {
          fn(at + static_cast<std::int64_t>(a - within), pos + (a - within), z - a);
        });
      });
}

// Bytes [from, from + len) of the layout's packed stream, `stream` pointing at byte `from`,
// written to the layout's memory at `base` (copy_into) or read from it (copy_out), data only:
// a pair run goes by copy_data's fixed-size moves, not stretch by stretch. A run's source and
// destination may overlap (an op to this rank's own window).
inline void copy_into(const Layout& l, std::uint64_t from, std::uint64_t len,
                      const std::byte* stream, std::byte* base) {
  for_each_typed_run(
      l, from, len,
      [&](std::int64_t at, std::uint64_t pos, std::uint64_t n, Dtype t, std::uint64_t within) {
        copy_data(base + at, stream + (pos - from), n, t, within);
      });
}
inline void copy_out(const Layout& l, std::uint64_t from, std::uint64_t len, const std::byte* base,
                     std::byte* stream) {
  for_each_typed_run(
      l, from, len,
      [&](std::int64_t at, std::uint64_t pos, std::uint64_t n, Dtype t, std::uint64_t within) {
        copy_data(stream + (pos - from), base + at, n, t, within);
      });
}

// True when some run of `t` is of a pair type with padding.
inline bool has_padding(const Datatype& t) {
  if (auto b = t.basic_type()) return has_padding(*b);
  return std::any_of(t.blocks().begin(), t.blocks().end(),
                     [](const TypeBlock& b) { return has_padding(b.dtype); });
}

// Gathers the layout's data at `base` into `out` (its packed stream), or scatters it back.
inline void pack(const Layout& l, const std::byte* base, std::byte* out) {
  for_each_run(l, 0, l.bytes(), RunBytes::whole,
               [&](std::int64_t at, std::uint64_t pos, std::uint64_t n) {
                 std::memcpy(out + pos, base + at, n);
               });
}
inline void unpack(const Layout& l, const std::byte* in, std::byte* base) {
  copy_into(l, 0, l.bytes(), in, base);
}

}  // namespace rma::core
