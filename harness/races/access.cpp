// access.cpp — the accumulate rule applied to two accesses, and the text of a finding (see
// access.hpp).
#include "races/access.hpp"

#include <algorithm>

namespace harness::races {
namespace {

// Until when an access lasts, in the words of a finding.
std::string completion(const Access& a) {
  if (!a.remote()) return "the " + a.call + " at " + a.at;
  if (a.done == SIZE_MAX) return "the " + a.call + " at " + a.at + " is never completed";
  return "the " + a.call + " at " + a.at + " completes at its " + a.done_at;
}

}  // namespace

reports::RaceAccess describe(const Access& a) {
  return {a.rank, a.at, a.call, a.w, a.t, a.lo, a.hi, a.epoch};
}

std::string clash(const Access& a, const Access& b) {
  if (!a.writes() && !b.writes()) return {};
  if (a.accumulate() && b.accumulate())
    return accumulate_clash({&a.spans, a.op, a.dt, a.grid, a.op_name},
                            {&b.spans, b.op, b.dt, b.grid, b.op_name});
  return "not both reads nor same-op accumulates";
}

std::string conflict_why(const Access& a, const Access& b, Span shared, const std::string& reason) {
  const std::string kind = a.remote() && b.remote()   ? "two remote accesses"
                           : a.remote() || b.remote() ? "a local access and a remote one"
                                                      : "two local accesses";
  std::string s = kind + " to bytes [" + std::to_string(shared.lo) + ", " +
                  std::to_string(shared.hi) + ") of rank " + std::to_string(a.t) + "'s window " +
                  std::to_string(a.w) + ", " + reason + "; ";
  if (a.fence > 0 && a.fence == b.fence)
    return s + "both are in " + a.epoch + ": only the fence that ends it orders them";
  if (a.lock == 's' && b.lock == 's') s += "shared locks do not exclude each other; ";
  return s + completion(a) + " and " + completion(b) +
         ", and no synchronization (fence, barrier, post/start, complete/wait, send/recv, "
         "exclusive lock, a compare_and_swap lock section each completes inside) orders one "
         "before the other";
}

std::string sync_why(const Access& a, const Access& b) {
  return "loads and stores of two ranks to bytes [" + std::to_string(std::max(a.lo, b.lo)) + ", " +
         std::to_string(std::min(a.hi, b.hi)) + ") of rank " + std::to_string(a.t) +
         "'s shared window " + std::to_string(a.w) +
         ": a barrier or message orders the ranks, but memory only with a window "
         "synchronization on both sides (win:sync(), or fence, lock/unlock, post/wait) — the "
         "writer's after its access and the reader's before, MPI-3.1 example 11.21; rank " +
         std::to_string(a.rank) + " or rank " + std::to_string(b.rank) + " has none between them";
}

}  // namespace harness::races
