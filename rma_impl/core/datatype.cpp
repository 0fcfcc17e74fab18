// Derived datatypes (rma/datatype.hpp): each constructor lays copies of its old type at
// displacements into one flat list of runs, merging a run into the previous one when it
// continues it, and tracks MPI's bounds as it goes (lb/ub from the copies' own bounds, the
// true bounds from the data).
#include "rma/datatype.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <utility>

namespace rma {
namespace {

// Bytes and counts stay below 2^48, so sums of a few of them never overflow: every type's
// bounds (lb, ub, true lb and ub) and data size stay below it, and so does every argument
// before it is added to them.
constexpr std::int64_t kLimit = std::int64_t{1} << 48;
// Runs in one type's flat list: beyond it a constructor fails instead of eating memory.
constexpr std::size_t kMaxBlocks = std::size_t{1} << 24;
// Copies a constructor lays out one by one (runs that merge still cost a step each): beyond
// it a constructor fails instead of running for minutes.
constexpr std::uint64_t kMaxSteps = std::uint64_t{1} << 26;

// |x| >= 2^48, without std::abs (undefined for INT64_MIN).
constexpr bool beyond(std::int64_t x) {
  return x <= -kLimit || x >= kLimit;
}
// Whether |n| steps of `step` bytes go 2^48 bytes or further, without multiplying (neither
// may be INT64_MIN: callers test beyond() first).
constexpr bool too_far(std::int64_t n, std::int64_t step) {
  const auto mag = [](std::int64_t x) { return x < 0 ? -x : x; };
  return step && mag(n) >= kLimit / mag(step);
}

using Span = std::pair<std::int64_t, std::int64_t>;  // bytes [first, second)

// One instance's runs as spans of the bytes a copy may write, by start: a run's last pair
// ends at its index, since no call writes the tail padding after it and MPI lets other data
// lie there. Padding between a run's pairs still counts (a conservative check).
std::vector<Span> sorted_spans(const std::vector<TypeBlock>& blocks) {
  std::vector<Span> spans;
  spans.reserve(blocks.size());
  for (const TypeBlock& b : blocks)
    spans.emplace_back(b.offset, b.offset + static_cast<std::int64_t>(b.data_reach()));
  std::sort(spans.begin(), spans.end());
  return spans;
}

Status bad(const std::string& call, const std::string& what) {
  return {ErrorClass::arg, "type_" + call + ": " + what};
}

std::string join(Datatype::Ints v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// Constructor arguments as one list: `first`, then each list's length and its values.
std::vector<std::int64_t> lists(std::initializer_list<Datatype::Ints> ls,
                                std::initializer_list<std::int64_t> first = {}) {
  std::vector<std::int64_t> v(first);
  for (Datatype::Ints l : ls) {
    v.push_back(static_cast<std::int64_t>(l.size()));
    v.insert(v.end(), l.begin(), l.end());
  }
  return v;
}

}  // namespace

Result<TypeRef> Datatype::built(Result<TypeRef> r, Code code, std::vector<std::int64_t> args,
                                std::vector<TypeRef> kids) {
  if (!r) return r;
  auto* m = const_cast<Datatype*>(r.value().get());  // not shared yet
  m->code_ = code;
  m->args_ = std::move(args);
  m->kids_ = std::move(kids);
  m->desc_bytes_ = 9 + 8 * m->args_.size();  // as Codec::encode writes it
  for (const TypeRef& k : m->kids_) m->desc_bytes_ += k->desc_bytes_;
  return r;
}

std::optional<Order> parse_order(std::string_view name) {
  if (name == "c") return Order::c;
  if (name == "fortran") return Order::fortran;
  return std::nullopt;
}

// Lays copies of old types into a new one.
struct Datatype::Builder {
  std::string call;
  Datatype t;
  // Bounds from copies without explicit bounds, and from those with (MPI's lb/ub markers:
  // where any copy has them, they alone count).
  bool any = false, any_explicit = false;
  std::int64_t lo = 0, hi = 0, xlo = 0, xhi = 0;
  std::uint64_t data = 0;   // bytes laid so far
  std::uint64_t steps = 0;  // copies laid one by one so far

  explicit Builder(std::string c) : call(std::move(c)) {}

  // Whether copies of `old` laid `step` bytes apart are one run: one block as long as the
  // step (a dense type, or one with a single block away from its bounds).
  static bool one_run(const Datatype& old, std::int64_t step) {
    return old.blocks_.size() == 1 && step > 0 &&
           static_cast<std::uint64_t>(step) == old.blocks_[0].count * size_of(old.blocks_[0].dtype);
  }

  // `copies` copies of `old`, the first at byte `disp`, each `step` bytes after the last.
  Status add(const Datatype& old, std::int64_t disp, std::int64_t copies, std::int64_t step) {
    if (copies <= 0) return Status::ok();
    if (beyond(disp) || beyond(step) || copies >= kLimit || too_far(copies, step) ||
        beyond(disp + (copies - 1) * step))
      return bad(call, "displacements beyond 2^48 bytes");
    const std::int64_t span = (copies - 1) * step;
    const std::int64_t l = disp + old.lb_ + std::min<std::int64_t>(0, span);
    const std::int64_t h = disp + old.ub() + std::max<std::int64_t>(0, span);
    if (beyond(l) || beyond(h) || beyond(disp + old.true_lb_ + std::min<std::int64_t>(0, span)) ||
        beyond(disp + old.padded_ub_ + std::max<std::int64_t>(0, span)))
      return bad(call, "bounds beyond 2^48 bytes");
    const auto n = static_cast<std::uint64_t>(copies);
    if (old.size_ && n > (static_cast<std::uint64_t>(kLimit) - 1 - data) / old.size_)
      return bad(call, "2^48 bytes of data or more");
    data += n * old.size_;
    if (old.explicit_bounds_) {
      xlo = any_explicit ? std::min(xlo, l) : l;
      xhi = any_explicit ? std::max(xhi, h) : h;
      any_explicit = true;
    } else {
      lo = any ? std::min(lo, l) : l;
      hi = any ? std::max(hi, h) : h;
      any = true;
    }
    t.explicit_bounds_ = t.explicit_bounds_ || old.explicit_bounds_;
    t.align_ = std::max(t.align_, old.align_);
    if (old.blocks_.empty()) return Status::ok();  // bounds, and nothing to lay
    if (one_run(old, step)) {                      // however many copies
      const TypeBlock& b = old.blocks_[0];
      return append({disp + b.offset, b.count * n, b.dtype});
    }
    steps += n;
    if (steps > kMaxSteps)
      return bad(call, "more than " + std::to_string(kMaxSteps) + " copies to lay out one by one");
    for (std::int64_t k = 0; k < copies; ++k)
      for (const TypeBlock& b : old.blocks_)
        RMA_TRY(append({disp + k * step + b.offset, b.count, b.dtype}));
    return Status::ok();
  }

  Status append(TypeBlock b) {
    if (b.count == 0) return Status::ok();
    if (!t.blocks_.empty()) {
      TypeBlock& last = t.blocks_.back();
      if (last.dtype == b.dtype &&
          last.offset + static_cast<std::int64_t>(last.count * size_of(last.dtype)) == b.offset) {
        last.count += b.count;
        return Status::ok();
      }
    }
    if (t.blocks_.size() >= kMaxBlocks)
      return bad(call, "more than " + std::to_string(kMaxBlocks) + " contiguous runs");
    t.blocks_.push_back(b);
    return Status::ok();
  }

  Result<TypeRef> finish(std::string text) {
    t.text_ = std::move(text);
    t.lb_ = any_explicit ? xlo : any ? lo : 0;
    t.extent_ = any_explicit ? xhi - xlo : any ? hi - lo : 0;
    std::int64_t tl = 0, th = 0, cu = 0;
    bool first = true;
    for (TypeBlock& b : t.blocks_) {
      b.pos = t.size_;
      const auto bytes = static_cast<std::int64_t>(b.count * size_of(b.dtype));
      const auto end = b.offset + static_cast<std::int64_t>(b.data_reach());
      tl = first ? b.offset : std::min(tl, b.offset);
      th = first ? end : std::max(th, end);
      cu = first ? b.offset + bytes : std::max(cu, b.offset + bytes);
      first = false;
      t.size_ += static_cast<std::uint64_t>(bytes);
      t.mpi_size_ += b.count * data_size(b.dtype);
      t.elements_ += b.count;
      if (t.basic_ && *t.basic_ != b.dtype) t.mixed_ = true;
      if (!t.basic_) t.basic_ = b.dtype;
    }
    if (t.mixed_) t.basic_.reset();
    t.true_lb_ = tl;
    t.true_ub_ = th;
    t.padded_ub_ = cu;
    const auto& r = t.blocks_;
    bool uniform = r.size() >= 2;
    for (std::size_t i = 1; uniform && i < r.size(); ++i)
      uniform = r[i].count * size_of(r[i].dtype) == r[0].count * size_of(r[0].dtype) &&
                r[i].offset - r[i - 1].offset == r[1].offset - r[0].offset;
    if (uniform) {
      t.uniform_bytes_ = r[0].count * size_of(r[0].dtype);
      t.uniform_stride_ = r[1].offset - r[0].offset;
    }
    const std::vector<Span> spans = sorted_spans(t.blocks_);  // once, not at every op
    for (std::size_t i = 1; i < spans.size() && !t.overlaps_one_; ++i)
      t.overlaps_one_ = spans[i].first < spans[i - 1].second;
    t.dense_ = t.blocks_.size() == 1 && t.blocks_[0].offset == 0 && t.lb_ == 0 &&
               t.extent_ == static_cast<std::int64_t>(t.size_);
    return TypeRef(new Datatype(std::move(t)));
  }
};

TypeRef Datatype::basic(Dtype d) {
  static const auto table = [] {
    std::vector<TypeRef> v;
    for (int i = 0; i < dtype_count; ++i) {
      const auto dt = static_cast<Dtype>(i);
      auto* t = new Datatype;
      t->kind_ = Kind::basic;
      t->size_ = size_of(dt);
      t->mpi_size_ = data_size(dt);
      t->elements_ = 1;
      t->extent_ = static_cast<std::int64_t>(size_of(dt));
      t->true_ub_ = static_cast<std::int64_t>(size_of(dt) - tail_padding(dt));
      t->padded_ub_ = static_cast<std::int64_t>(size_of(dt));
      t->basic_ = dt;
      t->dense_ = true;
      t->align_ = alignment_of(dt);
      t->blocks_ = {TypeBlock{0, 1, dt}};
      t->text_ = std::string(to_string(dt));
      t->args_ = {i};
      t->desc_bytes_ = 9 + 8;
      v.emplace_back(t);
    }
    return v;
  }();
  return table[static_cast<std::size_t>(d)];
}

namespace {

Status check_count(const std::string& call, const char* what, std::int64_t n) {
  if (n < 0)
    return {ErrorClass::count,
            "type_" + call + ": " + what + " " + std::to_string(n) + " is negative"};
  return Status::ok();
}

Status check_lengths(const std::string& call, Datatype::Ints bl, std::size_t n, const char* other) {
  if (bl.size() != n)
    return bad(call,
               std::to_string(bl.size()) + " blocklengths but " + std::to_string(n) + " " + other);
  for (std::int64_t b : bl) RMA_TRY(check_count(call, "blocklength", b));
  return Status::ok();
}

Status check_old(const std::string& call, const TypeRef& old) {
  if (!old) return {ErrorClass::type, "type_" + call + ": no old type"};
  return Status::ok();
}

}  // namespace

Result<TypeRef> Datatype::contiguous(std::int64_t count, const TypeRef& old) {
  RMA_TRY(check_old("contiguous", old));
  RMA_TRY(check_count("contiguous", "count", count));
  Builder b("contiguous");
  RMA_TRY(b.add(*old, 0, count, old->extent_));
  return built(b.finish("contiguous(" + std::to_string(count) + ", " + old->text_ + ")"),
               Code::contiguous, {count}, {old});
}

Result<TypeRef> Datatype::hvector(std::int64_t count, std::int64_t blocklength,
                                  std::int64_t stride_bytes, const TypeRef& old) {
  RMA_TRY(check_old("hvector", old));
  RMA_TRY(check_count("hvector", "count", count));
  RMA_TRY(check_count("hvector", "blocklength", blocklength));
  Builder b("hvector");
  if (count > 1 && blocklength > 0 && (beyond(stride_bytes) || too_far(count - 1, stride_bytes)))
    return bad("hvector", "stride " + std::to_string(stride_bytes) + " beyond 2^48 bytes");
  std::int64_t row = 0;  // a block's bytes, when its copies are one run
  if (count > 0 && blocklength > 0 && Builder::one_run(*old, old->extent_) &&
      !__builtin_mul_overflow(blocklength, old->extent_, &row) && stride_bytes == row) {
    // Blocks end to end: one add instead of a step per block.
    if (count >= kLimit / blocklength) return bad("hvector", "2^48 bytes of data or more");
    RMA_TRY(b.add(*old, 0, count * blocklength, old->extent_));
  } else if (blocklength > 0) {
    for (std::int64_t i = 0; i < count; ++i)
      RMA_TRY(b.add(*old, i * stride_bytes, blocklength, old->extent_));
  }
  return built(b.finish("hvector(" + std::to_string(count) + ", " + std::to_string(blocklength) +
                        ", " + std::to_string(stride_bytes) + ", " + old->text_ + ")"),
               Code::hvector, {count, blocklength, stride_bytes}, {old});
}

Result<TypeRef> Datatype::vector(std::int64_t count, std::int64_t blocklength, std::int64_t stride,
                                 const TypeRef& old) {
  RMA_TRY(check_old("vector", old));
  if (beyond(stride) || too_far(stride, old->extent_))
    return bad("vector", "stride " + std::to_string(stride) + " beyond 2^48 bytes");
  auto t = built(hvector(count, blocklength, stride * old->extent_, old), Code::vector,
                 {count, blocklength, stride}, {old});
  if (!t) return t;
  auto* m = const_cast<Datatype*>(t.value().get());  // not yet shared
  m->text_ = "vector(" + std::to_string(count) + ", " + std::to_string(blocklength) + ", " +
             std::to_string(stride) + ", " + old->text_ + ")";
  return t;
}

Result<TypeRef> Datatype::hindexed(Ints blocklengths, Ints byte_displacements, const TypeRef& old) {
  RMA_TRY(check_old("hindexed", old));
  RMA_TRY(check_lengths("hindexed", blocklengths, byte_displacements.size(), "displacements"));
  Builder b("hindexed");
  for (std::size_t i = 0; i < blocklengths.size(); ++i)
    RMA_TRY(b.add(*old, byte_displacements[i], blocklengths[i], old->extent_));
  return built(b.finish("hindexed(" + join(blocklengths) + ", " + join(byte_displacements) + ", " +
                        old->text_ + ")"),
               Code::hindexed, lists({blocklengths, byte_displacements}), {old});
}

namespace {
// Displacements in extents of `old`, as bytes; nullopt past 2^48.
std::optional<std::vector<std::int64_t>> scaled(Datatype::Ints d, std::int64_t extent) {
  std::vector<std::int64_t> v;
  for (std::int64_t x : d) {
    if (beyond(x) || too_far(x, extent)) return std::nullopt;
    v.push_back(x * extent);
  }
  return v;
}
}  // namespace

Result<TypeRef> Datatype::indexed(Ints blocklengths, Ints displacements, const TypeRef& old) {
  RMA_TRY(check_old("indexed", old));
  RMA_TRY(check_lengths("indexed", blocklengths, displacements.size(), "displacements"));
  auto bytes = scaled(displacements, old->extent_);
  if (!bytes) return bad("indexed", "displacements beyond 2^48 bytes");
  Builder b("indexed");
  for (std::size_t i = 0; i < blocklengths.size(); ++i)
    RMA_TRY(b.add(*old, (*bytes)[i], blocklengths[i], old->extent_));
  return built(b.finish("indexed(" + join(blocklengths) + ", " + join(displacements) + ", " +
                        old->text_ + ")"),
               Code::indexed, lists({blocklengths, displacements}), {old});
}

Result<TypeRef> Datatype::hindexed_block(std::int64_t blocklength, Ints byte_displacements,
                                         const TypeRef& old) {
  RMA_TRY(check_old("hindexed_block", old));
  RMA_TRY(check_count("hindexed_block", "blocklength", blocklength));
  Builder b("hindexed_block");
  for (std::int64_t d : byte_displacements) RMA_TRY(b.add(*old, d, blocklength, old->extent_));
  return built(b.finish("hindexed_block(" + std::to_string(blocklength) + ", " +
                        join(byte_displacements) + ", " + old->text_ + ")"),
               Code::hindexed_block, lists({byte_displacements}, {blocklength}), {old});
}

Result<TypeRef> Datatype::indexed_block(std::int64_t blocklength, Ints displacements,
                                        const TypeRef& old) {
  RMA_TRY(check_old("indexed_block", old));
  auto bytes = scaled(displacements, old->extent_);
  if (!bytes) return bad("indexed_block", "displacements beyond 2^48 bytes");
  RMA_TRY(check_count("indexed_block", "blocklength", blocklength));
  Builder b("indexed_block");
  for (std::int64_t d : *bytes) RMA_TRY(b.add(*old, d, blocklength, old->extent_));
  return built(b.finish("indexed_block(" + std::to_string(blocklength) + ", " +
                        join(displacements) + ", " + old->text_ + ")"),
               Code::indexed_block, lists({displacements}, {blocklength}), {old});
}

Result<TypeRef> Datatype::subarray(Ints sizes, Ints subsizes, Ints starts, Order order,
                                   const TypeRef& old) {
  RMA_TRY(check_old("subarray", old));
  const std::size_t n = sizes.size();
  if (n == 0) return bad("subarray", "no dimensions");
  if (subsizes.size() != n || starts.size() != n)
    return bad("subarray", std::to_string(n) + " sizes, " + std::to_string(subsizes.size()) +
                               " subsizes and " + std::to_string(starts.size()) +
                               " starts: they must be as many");
  // The dimension k-th fastest in storage.
  const auto dim = [&](std::size_t k) { return order == Order::c ? n - 1 - k : k; };
  // Element strides per dimension, in the storage order.
  std::vector<std::int64_t> stride(n);
  std::int64_t total = 1;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t d = dim(k);
    if (sizes[d] <= 0)
      return bad("subarray", "sizes[" + std::to_string(d + 1) + "] must be positive");
    if (subsizes[d] < 0 || starts[d] < 0 || subsizes[d] > sizes[d] - starts[d])
      return bad("subarray", "dimension " + std::to_string(d + 1) + ": start " +
                                 std::to_string(starts[d]) + " + subsize " +
                                 std::to_string(subsizes[d]) + " is outside 0.." +
                                 std::to_string(sizes[d]));
    stride[d] = total;
    if (sizes[d] >= kLimit / total) return bad("subarray", "more than 2^48 elements");
    total *= sizes[d];
  }
  const std::int64_t ext = old->extent_;
  if (ext && std::abs(total) >= kLimit / std::abs(ext))
    return bad("subarray", "more than 2^48 bytes");
  // The run: the fastest dimension's subsize, times the next ones' while every faster
  // dimension is whole (its rows then lie end to end).
  std::size_t folded = 1;
  std::int64_t run = subsizes[dim(0)];
  while (folded < n && starts[dim(folded - 1)] == 0 &&
         subsizes[dim(folded - 1)] == sizes[dim(folded - 1)])
    run *= subsizes[dim(folded++)];
  Builder b("subarray");
  // Every index of the dimensions not folded, in storage order; a run each.
  std::vector<std::int64_t> idx(n, 0);
  bool empty = false;
  for (std::size_t d = 0; d < n; ++d) empty = empty || subsizes[d] == 0;
  while (!empty) {
    std::int64_t at = 0;
    for (std::size_t d = 0; d < n; ++d) at += (starts[d] + idx[d]) * stride[d];
    RMA_TRY(b.add(*old, at * ext, run, ext));
    std::size_t k = folded;  // advance the outer index, fastest outer dimension first
    for (; k < n; ++k) {
      const std::size_t d = dim(k);
      if (++idx[d] < subsizes[d]) break;
      idx[d] = 0;
    }
    if (k == n) break;
  }
  std::string text = "subarray(" + join(sizes) + ", " + join(subsizes) + ", " + join(starts) +
                     (order == Order::c ? ", c, " : ", fortran, ") + old->text_ + ")";
  auto t = built(b.finish(std::move(text)), Code::subarray,
                 lists({sizes, subsizes, starts}, {static_cast<std::int64_t>(order)}), {old});
  if (!t) return t;
  auto* m = const_cast<Datatype*>(t.value().get());
  m->lb_ = 0;  // MPI: the whole array is the extent
  m->extent_ = total * ext;
  m->explicit_bounds_ = true;
  m->dense_ = m->blocks_.size() == 1 && m->blocks_[0].offset == 0 &&
              m->extent_ == static_cast<std::int64_t>(m->size_);
  return t;
}

Result<TypeRef> Datatype::struct_(Ints blocklengths, Ints byte_displacements,
                                  std::span<const TypeRef> types) {
  RMA_TRY(check_lengths("struct", blocklengths, byte_displacements.size(), "displacements"));
  if (types.size() != blocklengths.size())
    return bad("struct", std::to_string(blocklengths.size()) + " blocklengths but " +
                             std::to_string(types.size()) + " types");
  Builder b("struct");
  std::string names = "[";
  for (std::size_t i = 0; i < types.size(); ++i) {
    RMA_TRY(check_old("struct", types[i]));
    RMA_TRY(b.add(*types[i], byte_displacements[i], blocklengths[i], types[i]->extent_));
    names += (i ? ", " : "") + types[i]->text_;
  }
  auto t = built(b.finish("struct(" + join(blocklengths) + ", " + join(byte_displacements) + ", " +
                          names + "])"),
                 Code::struct_, lists({blocklengths, byte_displacements}),
                 std::vector<TypeRef>(types.begin(), types.end()));
  if (!t) return t;
  auto* m = const_cast<Datatype*>(t.value().get());
  // MPI's epsilon: without explicit bounds, the extent is padded to the largest alignment
  // of its members, so an array of structs keeps each member aligned (as C lays it out).
  const auto a = static_cast<std::int64_t>(m->align_);
  if (!m->explicit_bounds_ && a > 1 && m->extent_ % a) {
    m->extent_ += a - m->extent_ % a;
    m->dense_ = false;
  }
  return t;
}

Result<TypeRef> Datatype::resized(const TypeRef& old, std::int64_t lb, std::int64_t extent) {
  RMA_TRY(check_old("resized", old));
  if (beyond(lb) || beyond(extent) || beyond(lb + extent))
    return bad("resized", "lb, extent or ub beyond 2^48 bytes");
  Datatype t = *old;
  t.kind_ = Kind::derived;
  t.lb_ = lb;
  t.extent_ = extent;
  t.explicit_bounds_ = true;
  t.dense_ = old->dense_ && lb == 0 && extent == static_cast<std::int64_t>(old->size_);
  t.text_ =
      "resized(" + old->text_ + ", " + std::to_string(lb) + ", " + std::to_string(extent) + ")";
  t.code_ = Code::resized;
  t.args_ = {lb, extent};
  t.kids_ = {old};
  t.desc_bytes_ = 9 + 16 + old->desc_bytes_;
  return TypeRef(new Datatype(std::move(t)));
}

namespace {

// Appends `count` elements of `dtype`, merged into the last run when it has that type: the
// encoding stays canonical, so two sequences are the same exactly when their runs are.
void append_run(std::vector<SignatureRun>& runs, Dtype dtype, std::uint64_t count) {
  if (count == 0) return;
  if (!runs.empty() && runs.back().dtype == dtype)
    runs.back().count += count;
  else
    runs.push_back({dtype, count});
}

}  // namespace

std::vector<SignatureRun> Datatype::signature_runs() const {
  std::vector<SignatureRun> runs;
  for (const TypeBlock& b : blocks_) append_run(runs, b.dtype, b.count);
  return runs;
}

namespace {

std::string runs_text(const std::vector<SignatureRun>& runs) {
  if (runs.empty()) return "empty";
  std::string s;
  for (const SignatureRun& r : runs)
    s += (s.empty() ? "" : ",") + std::string(to_string(r.dtype)) + "*" + std::to_string(r.count);
  return s;
}

}  // namespace

std::string Datatype::signature() const {
  return runs_text(signature_runs());
}

std::int64_t Layout::data_lo() const {
  if (count == 0 || type->elements() == 0) return 0;
  const auto span = static_cast<std::int64_t>(count - 1) * type->extent();
  return type->true_lb() + std::min<std::int64_t>(0, span);
}

std::int64_t Layout::data_hi() const {
  if (count == 0 || type->elements() == 0) return 0;
  const auto span = static_cast<std::int64_t>(count - 1) * type->extent();
  return type->true_lb() + type->padded_extent() + std::max<std::int64_t>(0, span);
}

bool Layout::in_limits() const {
  if (count == 0) return true;
  const auto limit = static_cast<std::uint64_t>(kLimit);
  const auto extent = static_cast<std::uint64_t>(std::abs(type->extent()));
  return (type->packed_size() == 0 || count <= (limit - 1) / type->packed_size()) &&
         (extent == 0 || count - 1 <= (limit - 1) / extent);
}

std::string Layout::describe() const {
  return std::to_string(count) + " x " + type->describe();
}

std::string Layout::signature() const {
  const std::vector<SignatureRun> one = type->signature_runs();
  if (count == 0 || one.empty()) return runs_text({});
  if (one.size() == 1) return runs_text({{one[0].dtype, one[0].count * count}});
  if (count == 1) return runs_text(one);
  return std::to_string(count) + " x (" + runs_text(one) + ")";  // not `count` times over
}

namespace {

std::vector<SignatureRun> joined(const std::vector<SignatureRun>& a,
                                 const std::vector<SignatureRun>& b) {
  std::vector<SignatureRun> all;
  for (const auto* side : {&a, &b})
    for (const SignatureRun& r : *side) append_run(all, r.dtype, r.count);
  return all;
}

}  // namespace

// A^m = B^n for sequences A, B exactly when both are powers of one sequence, that is when
// AB = BA, and they have as many elements: one instance of each is compared, whatever the
// counts.
bool same_signature(const Layout& a, const Layout& b) {
  if (a.elements() != b.elements()) return false;
  if (a.elements() == 0) return true;
  const std::vector<SignatureRun>&x = a.type->signature_runs(), &y = b.type->signature_runs();
  return joined(x, y) == joined(y, x);
}

namespace {

// Blocks of one instance and of the instance `d` extents on never share a byte? `sorted` are
// the instance's spans by start, disjoint (the type does not overlap itself).
bool apart_at(const std::vector<Span>& sorted, std::int64_t shift) {
  // A merge of the spans with their shifted copies: some pair meets when one starts before
  // the other ends.
  std::size_t i = 0, j = 0;
  while (i < sorted.size() && j < sorted.size()) {
    const auto& a = sorted[i];
    const Span b{sorted[j].first + shift, sorted[j].second + shift};
    if (a.first < b.second && b.first < a.second) return false;
    (a.second <= b.second ? i : j)++;
  }
  return true;
}

}  // namespace

Overlap overlaps(const Layout& l) {
  const Datatype& t = *l.type;
  if (t.blocks().empty() || l.count == 0) return Overlap::none;
  if (t.overlaps_itself()) return Overlap::some;
  // Instances i and i + d meet exactly when instances 0 and d do, and only while d extents
  // are shorter than the bytes one instance writes: so d runs from 1 to the smaller of count - 1
  // and that reach, each d one merge of the instance's spans with their shifted copies.
  const std::int64_t ext = t.extent() < 0 ? -t.extent() : t.extent();
  if (ext == 0) return l.count > 1 ? Overlap::some : Overlap::none;
  const std::int64_t bytes = t.true_extent();  // the spans' reach, a last pair's padding out
  const std::uint64_t reach = ext >= bytes ? 0 : static_cast<std::uint64_t>((bytes - 1) / ext);
  const std::uint64_t last = std::min<std::uint64_t>(l.count - 1, reach);
  if (last == 0) return Overlap::none;
  // Spans compared, about a second; most overlaps show at the first distances.
  constexpr std::uint64_t kMaxWork = std::uint64_t{1} << 28;
  const std::uint64_t most = std::max<std::uint64_t>(1, kMaxWork / t.blocks().size());
  const std::vector<Span> sorted = sorted_spans(t.blocks());
  for (std::uint64_t d = 1; d <= last; ++d) {
    if (d > most) return Overlap::unknown;
    if (!apart_at(sorted, static_cast<std::int64_t>(d) * t.extent())) return Overlap::some;
  }
  return Overlap::none;
}

}  // namespace rma
