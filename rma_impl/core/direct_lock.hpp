// direct_lock.hpp — the passive-target lock and unlock slots of every direct path, written
// once over the backend's acquire and release (DirectSync in window_ops.hpp). `Locks` says
// how the slots reach them: TableLocks through the window's table, for any backend
// (with_direct_sync installs those), or a backend's own struct naming its functions, which
// the compiler then inlines into the slot (shm: a lock epoch is then the lock word's
// atomics in the slot's frame, not one call more per lock and per unlock).
#pragma once

#include "core/direct_sync.hpp"

namespace rma::core {

struct TableLocks {
  static Status acquire(Call& c, int t, LockType type) { return prims(c).acquire(c, t, type); }
  static void release(Call& c, int t, LockType type) { prims(c).release(c, t, type); }
};

inline LockHeld held_as(LockType type) {
  return type == LockType::exclusive ? LockHeld::exclusive : LockHeld::shared;
}
inline LockType type_of(LockHeld h) {
  return h == LockHeld::exclusive ? LockType::exclusive : LockType::shared;
}

// The backend's word on an epoch, if it wants one (DirectSync::lock_epoch): false otherwise.
inline Result<bool> tell_epoch(Call& c, LockEpoch ev, int t, LockType type) {
  auto f = prims(c).lock_epoch;
  if (!f) return false;
  return f(c, ev, t, type);
}

inline Status complete_ops(Call& c, int target, bool local) {
  auto f = prims(c).complete_ops;
  return f ? f(c, target, local) : Status::ok();
}

// Ops that went to the am slots may hold the am protocol's lock at the target (the
// piggybacked request of their flush): the am table's unlock releases it before ours goes.
Status close_am_epoch(Call& c, int t);
inline Status close_fallback(Call& c, int t) {
  if (!prims(c).falls_back) return Status::ok();
  return close_am_epoch(c, t);
}

// The lock is taken when lock() is called, not at the first op: a program that locks
// several targets in one order everywhere must acquire them in that order, or two origins
// each holding one lock could wait for the other's. (This rank's own window needs it then
// anyway: the caller may load and store it directly once lock() returns.) A backend may
// defer it where no such cycle can form (DirectSync::lock_epoch). With nocheck nobody else
// holds a conflicting lock, so none is taken.
template <class Locks>
Status lock_slot(Call& c, LockType type, int t, unsigned asserts) {
  if (asserts & assert_nocheck) {
    c.w.locks.set(t, LockHeld::nocheck);
    return Status::ok();
  }
  // A backend with no word on lock epochs (shm) takes the lock without building a Result.
  if (prims(c).lock_epoch) {
    Result<bool> deferred = tell_epoch(c, LockEpoch::open, t, type);
    if (!deferred) return deferred.status();
    if (deferred.value()) {
      c.w.locks.set(t, held_as(type));
      return Status::ok();
    }
  }
  Status s = Locks::acquire(c, t, type);
  if (!s) [[unlikely]] {
    (void)tell_epoch(c, LockEpoch::close, t, type);
    return s;
  }
  c.w.locks.set(t, held_as(type));
  return Status::ok();
}

// Gives back the lock held on `t`, if one was taken (not with nocheck, nor for a target
// lock_all never touched).
template <class Locks>
void release_held(Call& c, int t) {
  const LockHeld h = c.w.locks.at(t);
  if (h == LockHeld::shared || h == LockHeld::exclusive) Locks::release(c, t, type_of(h));
  c.w.locks.set(t, LockHeld::none);
}

// The ops complete at the target before the lock goes, so the next holder sees them.
template <class Locks>
Status unlock_slot(Call& c, int t) {
  const LockHeld h = c.w.locks.at(t);
  const LockType type = type_of(h);
  const bool epoch_word = h != LockHeld::nocheck && prims(c).lock_epoch;
  if (epoch_word) {
    Result<bool> finished = tell_epoch(c, LockEpoch::finish, t, type);
    if (!finished) return finished.status();
    if (finished.value()) {
      c.w.locks.set(t, LockHeld::none);
      return Status::ok();
    }
  }
  RMA_TRY(complete_ops(c, t, false));
  RMA_TRY(close_fallback(c, t));
  release_held<Locks>(c, t);
  if (epoch_word) (void)tell_epoch(c, LockEpoch::close, t, type);
  return Status::ok();
}

// A backend's table with its own acquire and release inlined into the lock and unlock slots
// (after with_direct_sync, whose table-driven slots these replace for lock and unlock).
template <class Locks>
void inline_locks(WindowOps& t) {
  t.lock = lock_slot<Locks>;
  t.unlock = unlock_slot<Locks>;
  t.direct_sync.inlined_locks = true;
}

}  // namespace rma::core
