// footprint.hpp — the exact bytes an access of `--check races` touches, and when two
// accumulates on shared bytes may run concurrently.
//
// The recorder turns a derived-datatype layout into byte runs (offset, length) relative to
// the buffer or target displacement it applies to, ascending and merged where they touch, so
// that two origins' interleaved vectors into one region read as disjoint. Beyond kMaxRuns runs
// it records the covering range instead: conservative (a race may be reported between
// disjoint layouts, none is missed), and it keeps a log event small whatever the type.
//
// The checker intersects runs and applies MPI's accumulate rule (MPI-3.1 11.7.1): concurrent
// accumulates to a location are atomic per element only with the same op (or no_op) on the
// same basic type, element for element; anything else is a conflict.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rma/datatype.hpp"

namespace harness::races {

// Runs kept per layout before falling back to the covering range: a strided layout that
// needs more is usually a large repetitive one whose covering range is what another access
// would hit anyway, and every event is shipped to the parent and kept for the whole case.
inline constexpr std::size_t kMaxRuns = 64;

struct Run {
  std::int64_t off = 0;
  std::uint64_t len = 0;
  bool operator==(const Run&) const = default;
};

struct Runs {
  std::vector<Run> runs;  // ascending, disjoint, not touching
  bool exact = true;      // false: one covering run, the type needed more than kMaxRuns
  // Every element of the covering run lies on one grid from its start (element size apart):
  // only then can the checker tell element alignment from a covering run. True when exact.
  bool grid = true;
};

// The bytes `l` touches, relative to the start of its buffer (the target side: to disp).
Runs layout_runs(const rma::Layout& l);

// An absolute byte range [lo, hi) of one rank's window (or of a buffer).
struct Span {
  std::uint64_t lo = 0, hi = 0;
};
using Spans = std::vector<Span>;  // ascending, disjoint

// The first bytes two accesses both touch, if any.
std::optional<Span> first_shared(const Spans& a, const Spans& b);

// One accumulate or atomic as the rule below sees it.
struct AccumulateSide {
  const Spans* spans = nullptr;
  rma::Op op = rma::Op::replace;   // compare_and_swap: replace (a conditional one)
  rma::Dtype dt = rma::Dtype::u8;  // the basic type of its target elements
  bool grid = true;                // Runs::grid
  std::string_view name;           // the op as a finding names it (empty: rma::Op's name)
};

// Why two accumulates on shared bytes are a race ("different ops sum and max", ...), or the
// empty string when MPI lets them run concurrently.
std::string accumulate_clash(const AccumulateSide& a, const AccumulateSide& b);

}  // namespace harness::races
