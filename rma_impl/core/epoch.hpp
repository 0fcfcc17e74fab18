// epoch.hpp — which synchronization epochs a window is in at this rank, and which calls are
// legal there. The generic layer owns these semantics for every path: a backend never sees
// a call the epoch state forbids, and every misuse gets its MPI error class (RMA_SYNC,
// ASSERT) with a message naming the call, the window and the target.
//
// Each call is checked with can_*() before the backend does anything and recorded with
// did_*() after it succeeded, so a failed call leaves the state as it was.
//
//   RMA_TRY(ep.can_lock(target, type, asserts));  backend.lock(...);  ep.did_lock(...);
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rma/status.hpp"
#include "rma/types.hpp"

namespace rma::core {

// Access side: what the rank may do as an origin.
enum class Access : std::uint8_t {
  none,
  fence_open,  // a fence was called and no op since: another epoch kind may still begin
  fence,       // ops were issued since the fence: a fence epoch is really open
  pscw,        // start .. complete
  lock,        // lock .. unlock, per target
  lock_all,    // lock_all .. unlock_all
};
// Exposure side: what the rank offers as a target (passive target needs no exposure).
enum class Exposure : std::uint8_t { none, fence, post };

std::string_view to_string(Access a);
std::string_view to_string(Exposure e);

class Epochs {
 public:
  Epochs(int window_id, int ranks) : win_(window_id), locks_(static_cast<std::size_t>(ranks)) {}

  Status can_fence(unsigned asserts, bool ops_pending) const;
  void did_fence(unsigned asserts);
  Status can_start(std::span<const int> group, unsigned asserts) const;
  void did_start(std::span<const int> group, unsigned asserts);
  Status can_complete() const;
  void did_complete();
  Status can_post(std::span<const int> group, unsigned asserts) const;
  void did_post(std::span<const int> group, unsigned asserts);
  Status can_wait(const char* call) const;  // wait and test
  void did_wait();
  // Inline for the legal cases (every lock and unlock asks); every error goes to the full
  // check, which names it.
  Status can_lock(int target, unsigned asserts, bool no_locks) const {
    const Access a = access();
    if ((asserts & ~static_cast<unsigned>(assert_nocheck)) == 0 && !no_locks &&
        (a == Access::none || a == Access::fence_open || a == Access::lock) && !locked(target))
      return Status::ok();
    return check_lock(target, asserts, no_locks);
  }
  // PROC_NULL is a valid target: its lock opens an epoch with no target (so ops to PROC_NULL
  // are legal in it) and its unlock closes it. Inline, as are did_unlock and did_access:
  // every lock, unlock and op records itself.
  void did_lock(int target, LockType type, unsigned asserts) {
    access_.store(Access::lock, std::memory_order_relaxed);
    if (exposure() == Exposure::fence) exposure_.store(Exposure::none, std::memory_order_relaxed);
    if (target == proc_null)
      null_lock_ = true;
    else
      locks_[static_cast<std::size_t>(target)] = {true, type, (asserts & assert_nocheck) != 0};
    ++locked_count_;
  }
  Status can_unlock(int target) const {
    if (access() == Access::lock && locked(target)) return Status::ok();
    return check_unlock(target);
  }
  void did_unlock(int target) {
    if (target == proc_null)
      null_lock_ = false;
    else
      locks_[static_cast<std::size_t>(target)] = {};
    if (--locked_count_ == 0) access_.store(Access::none, std::memory_order_relaxed);
  }
  Status can_lock_all(unsigned asserts, bool no_locks) const;
  void did_lock_all(unsigned asserts);
  Status can_unlock_all() const;
  void did_unlock_all();
  // flush, flush_local (target) and their _all forms (target = -1).
  Status can_flush(const char* call, int target) const;
  // A communication call to `target`; request-based calls need a passive-target epoch.
  // Inline for the legal cases of passive target and fence (every op asks); PSCW and every
  // error go to the full check.
  Status can_access(const char* call, int target, bool request_based) const {
    const Access a = access();
    if (a == Access::lock_all || (a == Access::lock && locked(target)) ||
        (!request_based && (a == Access::fence || a == Access::fence_open)))
      return Status::ok();
    return check_access(call, target, request_based);
  }
  void did_access() {
    if (access() == Access::fence_open) access_.store(Access::fence, std::memory_order_relaxed);
  }
  Status can_free() const;

  Access access() const { return access_.load(std::memory_order_relaxed); }
  Exposure exposure() const { return exposure_.load(std::memory_order_relaxed); }
  bool locked(int target) const {
    return target == proc_null ? null_lock_ : locks_[static_cast<std::size_t>(target)].held;
  }
  LockType lock_type(int target) const {
    return target == proc_null ? LockType::shared : locks_[static_cast<std::size_t>(target)].type;
  }
  // nocheck on lock / lock_all, start (the matching post will not be waited for) or post.
  bool nocheck(int target) const;
  bool start_nocheck() const { return start_nocheck_; }
  bool lock_all_nocheck() const { return lock_all_nocheck_; }
  bool post_nocheck() const { return post_nocheck_; }
  const std::vector<int>& start_group() const { return start_group_; }
  const std::vector<int>& post_group() const { return post_group_; }
  int locked_targets() const { return locked_count_; }

 private:
  Status check_access(const char* call, int target, bool request_based) const;
  Status check_lock(int target, unsigned asserts, bool no_locks) const;
  Status check_unlock(int target) const;
  Status sync_error(const char* call, int target, const std::string& why) const;
  Status assert_error(const char* call, unsigned asserts, unsigned allowed) const;
  bool in_start_group(int target) const;

  struct TargetLock {
    bool held = false;
    LockType type = LockType::exclusive;
    bool nocheck = false;
  };
  int win_;
  // Atomic only so that a state dump may read them while the application thread runs a
  // call that holds no lock (direct path); the application thread is their only writer, so
  // it stores them relaxed (a seq_cst store is a full fence on every synchronization call).
  std::atomic<Access> access_{Access::none};
  std::atomic<Exposure> exposure_{Exposure::none};
  std::vector<TargetLock> locks_;
  int locked_count_ = 0;
  bool null_lock_ = false;  // lock(PROC_NULL): an epoch with no target, closed by unlock(PROC_NULL)
  bool lock_all_nocheck_ = false;
  bool start_nocheck_ = false;
  bool post_nocheck_ = false;
  std::vector<int> start_group_;
  std::vector<int> post_group_;
};

}  // namespace rma::core
