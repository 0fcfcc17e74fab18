// access.hpp — one access to window memory as the race checker (checker.cpp) pairs them:
// what it touches and until when it lasts, whether two such conflict under MPI's rules, and
// the words a finding on them is reported with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "races/footprint.hpp"
#include "races/race_event.hpp"
#include "reports/model.hpp"

namespace harness::races {

// One access to window memory, with what the checker needs to order it.
struct Access {
  int rank = -1;
  std::size_t idx = 0;          // issue
  std::size_t done = SIZE_MAX;  // the event that completes it at the target (SIZE_MAX: none)
  int w = -1, t = -1;
  std::uint64_t lo = 0, hi = 0;  // the bytes it covers
  Spans spans;                   // the bytes it touches, within [lo, hi)
  bool grid = true;              // footprint.hpp's Runs::grid
  AccessMode mode = AccessMode::none;
  rma::Op op = rma::Op::replace;  // accumulates and atomics
  std::string_view op_name;       // as the log spells it (race_event.hpp)
  rma::Dtype dt = rma::Dtype::u8;
  std::string call, at, epoch, done_at;
  int fence = 0;  // the fence epoch it lies in (1, 2, ... as `epoch` names it), 0: another
  char lock = 0;  // 'x' / 's': the lock the accessing rank holds on the target, 0 none
  char role = 0;  // on a compare_and_swap lock word: 'q' acquire, 'f' failed attempt, 'r' release
  std::vector<std::size_t> secs;  // the checker's compare_and_swap critical sections it is inside
  bool accumulate() const { return mode == AccessMode::accumulate; }
  bool remote() const {
    return mode == AccessMode::read || mode == AccessMode::write || accumulate();
  }
  // An accumulate with no_op (get_accumulate, fetch_and_op) only reads.
  bool writes() const {
    return mode == AccessMode::write || (accumulate() && op != rma::Op::no_op) ||
           mode == AccessMode::store;
  }
};

reports::RaceAccess describe(const Access& a);

// Why a and b, touching shared bytes, conflict; empty when MPI allows them at once: two
// reads, or two accumulates of one op (or no_op) on one basic type, element for element.
std::string clash(const Access& a, const Access& b);

// A conflict's explanation: a and b share the bytes `shared` and clash for `reason`, and
// nothing orders them.
std::string conflict_why(const Access& a, const Access& b, Span shared, const std::string& reason);

// Two ranks' loads and stores of shared memory, ordered between the ranks but not for memory.
std::string sync_why(const Access& a, const Access& b);

}  // namespace harness::races
