// direct_sync.hpp — fence, post/start/complete/wait/test, the flushes and the passive-target
// locks of every backend's direct path, written once over the backend's primitives
// (core::DirectSync in window_ops.hpp), as MPICH ch4's generic layer owns the epochs and its
// transports give completion hooks. A backend's direct table starts from with_direct_sync();
// its data slots ask await_access() before touching a target's memory.
#pragma once

#include "core/window_ops.hpp"
#include "progress/engine.hpp"

namespace rma::core {

// The window's backend primitives: its table's DirectSync.
inline const DirectSync& prims(const Call& c) {
  return c.w.ops->direct_sync;
}

// Waits for `pred` as a synchronization call: at once if it holds, else with the engine
// held (waiting makes progress), spinning briefly, then yielding, then blocking.
template <class Pred>
Status wait_sync(Call& c, const char* what, int peer, Pred&& pred) {
  if (pred()) return Status::ok();
  c.hold();
  return c.w.engine.wait_until(c.lk, pred, progress::WaitInfo{progress::Ctx::rma_sync, what, peer});
}

// In a start epoch, an op may touch `target`'s memory only once the target has posted
// (unless the epoch was started with nocheck). Checked per op: the common case, a target
// already seen, stays inline.
Status await_post_slow(Call& c, int target);
inline Status await_post(Call& c, int target) {
  if (c.w.taken.post_seen[static_cast<std::size_t>(target)]) return Status::ok();
  return await_post_slow(c, target);
}

// In lock_all, an op takes the target's lock (shared) first, unless it holds it: lock_all
// takes no lock itself, so an epoch touching few targets waits for few.
Status lock_all_access(Call& c, int target);

// An op may touch a target's memory only once its exposure has begun: in a start epoch at
// its post, in lock_all once the target's lock is held; a fence was a barrier and lock() took
// its lock (or the backend defers it, and sees to it before this: DirectSync::lock_epoch).
// Every op asks, so the common cases stay inline.
inline Status await_access(Call& c, int t) {
  switch (c.w.epochs.access()) {
    case Access::pscw:
      return await_post(c, t);
    case Access::lock_all:
      if (c.w.locks.at(t) != LockHeld::none) return Status::ok();
      return lock_all_access(c, t);
    default:
      return Status::ok();
  }
}

}  // namespace rma::core
