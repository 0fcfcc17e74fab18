// rma/state.hpp — a snapshot of what a rank is doing, for deadlock and timeout reports.
//
// Runtime::state() may be called from any thread while the rank's main thread is blocked
// inside the library; it says which call the rank is in and since when, each window's epochs,
// queued operations and lock manager, and the counters. The harness turns it into the
// `rank_states` of a report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rma/counters.hpp"

namespace rma {

// How long a rank must have waited in one call to count as stuck in it: the deadline's
// deadlock verdict (a live program's ranks wait for moments at a time), and, on an MPI
// library that does not say whether a call waits, how long inside one call means waiting.
inline constexpr double kStuckAfterS = 0.5;

struct CallState {
  std::string call;         // library call the rank is in ("" when in user code)
  int window = -1;          // window id, -1 when the call has none
  int target = -2;          // target or peer rank, -2 when the call has none
  bool blocked = false;     // waiting for a condition (not just executing)
  double since_s = 0;       // seconds the rank has been in the call
  std::string waiting_for;  // what the wait needs ("ack from 1", "post from 0", ...)
};

struct TargetState {
  int target = 0;
  std::string lock;  // "none", "requested shared", "granted exclusive", "nocheck"
  std::uint32_t queued_ops = 0;
  std::uint32_t in_flight = 0;      // issued, not yet locally complete
  std::uint32_t awaiting_acks = 0;  // remote completions still expected
};

struct WindowState {
  int id = 0;
  std::string flavor;
  std::string path;
  std::string access_epoch;          // "none", "fence", "pscw", "lock", "lock_all"
  std::string exposure_epoch;        // "none", "fence", "post"
  std::vector<TargetState> targets;  // only targets with something to say
  std::string lock_holders;          // target-side lock manager, as text: "exclusive by 2"
  std::string lock_waiters;          // FIFO of waiting requests: "shared 3, exclusive 1"
};

struct RankState {
  int rank = 0;
  CallState call;
  std::vector<WindowState> windows;
  Counters counters;
};

}  // namespace rma
