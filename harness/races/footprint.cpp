// footprint.cpp — byte runs of a layout, their intersection, and the accumulate rule (see
// footprint.hpp).
#include "races/footprint.hpp"

#include <algorithm>

#include "rma/types.hpp"

namespace harness::races {
namespace {

// Sorts `v` and merges runs that overlap or touch. Two runs of one basic type that overlap
// off the element grid (MPI forbids such an accumulate target, a get may have one) lose their
// separate grids in the merge: `grid` turns false.
void compact(std::vector<Run>& v, std::uint64_t es, bool& grid) {
  std::sort(v.begin(), v.end(), [](const Run& x, const Run& y) { return x.off < y.off; });
  std::size_t k = 0;
  for (std::size_t i = 1; i < v.size(); ++i) {
    Run& last = v[k];
    const std::int64_t end = last.off + static_cast<std::int64_t>(last.len);
    if (v[i].off <= end) {
      if (v[i].off < end && (v[i].off - last.off) % static_cast<std::int64_t>(es) != 0)
        grid = false;
      const std::int64_t e2 = v[i].off + static_cast<std::int64_t>(v[i].len);
      last.len = static_cast<std::uint64_t>(std::max(end, e2) - last.off);
    } else {
      v[++k] = v[i];
    }
  }
  v.resize(v.empty() ? 0 : k + 1);
}

// Whether every element of `l` lies on one grid from the layout's first byte: each block of
// one instance starts on it and the instances repeat it (extent a multiple of the element).
bool on_one_grid(const rma::Layout& l, std::uint64_t es) {
  if (es <= 1) return true;
  const auto e = static_cast<std::int64_t>(es);
  const std::int64_t lo = l.data_lo();
  if (l.count > 1 && l.type->extent() % e != 0) return false;
  for (const rma::TypeBlock& b : l.type->blocks())
    if (((b.offset - lo) % e + e) % e != 0) return false;
  return true;
}

}  // namespace

Runs layout_runs(const rma::Layout& l) {
  Runs out;
  const rma::Datatype& t = *l.type;
  if (l.count == 0 || t.size() == 0) return out;
  // A run ends at its last pair's index (TypeBlock::data_reach); padding between a run's
  // pairs counts. A dense layout is one run of its basic type.
  if (t.dense()) {
    out.runs.push_back(
        {0, rma::TypeBlock{0, l.count * t.elements(), *t.basic_type()}.data_reach()});
    return out;
  }
  const std::uint64_t es = t.basic_type() ? rma::size_of(*t.basic_type()) : 1;
  std::vector<Run>& v = out.runs;
  bool more = false;  // past the cap: stop walking, the covering range stands for it
  for (std::uint64_t i = 0; i < l.count && !more; ++i)
    for (const rma::TypeBlock& b : t.blocks()) {
      const std::int64_t at = static_cast<std::int64_t>(i) * t.extent() + b.offset;
      const std::uint64_t len = b.data_reach();
      if (len == 0) continue;
      // Types lay their runs out in order mostly: extend the last one where it ends.
      if (!v.empty() && v.back().off + static_cast<std::int64_t>(v.back().len) == at) {
        v.back().len += len;
        continue;
      }
      v.push_back({at, len});
      if (v.size() > 2 * kMaxRuns) {
        compact(v, es, out.grid);
        if (v.size() > kMaxRuns) {
          more = true;
          break;
        }
      }
    }
  compact(v, es, out.grid);
  if (more || v.size() > kMaxRuns) {
    const std::int64_t lo = l.data_lo();
    v.assign(1, Run{lo, static_cast<std::uint64_t>(l.data_hi() - lo)});
    out.exact = false;
    out.grid = on_one_grid(l, es);
  }
  return out;
}

std::optional<Span> first_shared(const Spans& a, const Spans& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].hi <= b[j].lo) {
      ++i;
    } else if (b[j].hi <= a[i].lo) {
      ++j;
    } else {
      return Span{std::max(a[i].lo, b[j].lo), std::min(a[i].hi, b[j].hi)};
    }
  }
  return std::nullopt;
}

std::string accumulate_clash(const AccumulateSide& a, const AccumulateSide& b) {
  // A finding names an op as the log spells it (compare_and_swap: cas).
  const auto name = [](const AccumulateSide& s) {
    return std::string(s.name.empty() ? rma::to_string(s.op) : s.name);
  };
  // compare_and_swap comes as replace, a conditional one: a lock word taken with it and
  // released with replace is the usual MPI mutex.
  if (a.op != b.op && a.op != rma::Op::no_op && b.op != rma::Op::no_op)
    return "accumulates with different ops (" + name(a) + ", " + name(b) + ")";
  const std::string dt(rma::to_string(a.dt));
  if (a.dt != b.dt)
    return "accumulates on different basic types (" + dt + ", " +
           std::string(rma::to_string(b.dt)) + ")";
  if (!a.grid || !b.grid)
    return "an accumulate whose layout was recorded as its covering range, off one element "
           "grid: its elements cannot be shown to line up with the other's";
  const std::uint64_t es = rma::size_of(a.dt);
  if (es <= 1 || !a.spans || !b.spans) return {};
  // Elements line up when every pair of runs that meet start a whole number of elements apart.
  const Spans &x = *a.spans, &y = *b.spans;
  std::size_t i = 0, j = 0;
  while (i < x.size() && j < y.size()) {
    if (x[i].hi <= y[j].lo) {
      ++i;
    } else if (y[j].hi <= x[i].lo) {
      ++j;
    } else {
      const std::uint64_t apart = x[i].lo > y[j].lo ? x[i].lo - y[j].lo : y[j].lo - x[i].lo;
      if (apart % es != 0)
        return "accumulates that split elements (" + dt + " elements from byte " +
               std::to_string(x[i].lo) + " and from byte " + std::to_string(y[j].lo) + ")";
      (x[i].hi < y[j].hi ? i : j)++;
    }
  }
  return {};
}

}  // namespace harness::races
