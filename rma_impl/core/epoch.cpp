#include "core/epoch.hpp"

#include <algorithm>

namespace rma::core {

std::string_view to_string(Access a) {
  switch (a) {
    case Access::none:
      return "none";
    case Access::fence_open:
      return "fence (no op yet)";
    case Access::fence:
      return "fence";
    case Access::pscw:
      return "pscw";
    case Access::lock:
      return "lock";
    case Access::lock_all:
      return "lock_all";
  }
  return "?";
}

std::string_view to_string(Exposure e) {
  switch (e) {
    case Exposure::none:
      return "none";
    case Exposure::fence:
      return "fence";
    case Exposure::post:
      return "post";
  }
  return "?";
}

Status Epochs::sync_error(const char* call, int target, const std::string& why) const {
  std::string where = std::string(call) + ": window " + std::to_string(win_);
  if (target >= 0) where += ", target " + std::to_string(target);
  return {ErrorClass::rma_sync, where + ": " + why};
}

Status Epochs::assert_error(const char* call, unsigned asserts, unsigned allowed) const {
  if ((asserts & ~allowed) == 0) return Status::ok();
  return {ErrorClass::assert_, std::string(call) + ": window " + std::to_string(win_) +
                                   ": assert " + asserts_to_string(asserts & ~allowed) +
                                   " is not allowed here (allowed: " + asserts_to_string(allowed) +
                                   ")"};
}

bool Epochs::in_start_group(int target) const {
  return std::find(start_group_.begin(), start_group_.end(), target) != start_group_.end();
}

bool Epochs::nocheck(int target) const {
  if (access_ == Access::lock_all) return lock_all_nocheck_;
  if (access_ == Access::lock && target != proc_null)
    return locks_[static_cast<std::size_t>(target)].nocheck;
  return false;
}

// --- fence --------------------------------------------------------------------------------

Status Epochs::can_fence(unsigned asserts, bool ops_pending) const {
  RMA_TRY(assert_error("fence", asserts,
                       assert_nostore | assert_noput | assert_noprecede | assert_nosucceed));
  switch (access_) {
    case Access::pscw:
      return sync_error("fence", -1, "inside a start/complete access epoch");
    case Access::lock:
      return sync_error("fence", -1, "a target is locked");
    case Access::lock_all:
      return sync_error("fence", -1, "inside lock_all");
    default:
      break;
  }
  if (exposure_ == Exposure::post)
    return sync_error("fence", -1, "inside a post/wait exposure epoch");
  if ((asserts & assert_noprecede) && ops_pending)
    return sync_error("fence", -1, "noprecede, but operations of this epoch are pending");
  return Status::ok();
}

void Epochs::did_fence(unsigned asserts) {
  if (asserts & assert_nosucceed) {
    access_.store(Access::none, std::memory_order_relaxed);
    exposure_.store(Exposure::none, std::memory_order_relaxed);
  } else {
    access_.store(Access::fence_open, std::memory_order_relaxed);
    exposure_.store(Exposure::fence, std::memory_order_relaxed);
  }
}

// --- post/start/complete/wait -------------------------------------------------------------

Status Epochs::can_start(std::span<const int> group, unsigned asserts) const {
  RMA_TRY(assert_error("start", asserts, assert_nocheck));
  (void)group;
  switch (access_) {
    case Access::none:
    case Access::fence_open:
      return Status::ok();
    case Access::pscw:
      return sync_error("start", -1, "already inside a start epoch");
    case Access::fence:
      return sync_error("start", -1, "inside a fence epoch with operations");
    case Access::lock:
      return sync_error("start", -1, "a target is locked");
    case Access::lock_all:
      return sync_error("start", -1, "inside lock_all");
  }
  return Status::ok();
}

void Epochs::did_start(std::span<const int> group, unsigned asserts) {
  access_.store(Access::pscw, std::memory_order_relaxed);
  if (exposure_ == Exposure::fence) exposure_.store(Exposure::none, std::memory_order_relaxed);
  start_group_.assign(group.begin(), group.end());
  start_nocheck_ = asserts & assert_nocheck;
}

Status Epochs::can_complete() const {
  if (access_ != Access::pscw) return sync_error("complete", -1, "no start epoch to complete");
  return Status::ok();
}

void Epochs::did_complete() {
  access_.store(Access::none, std::memory_order_relaxed);
  start_group_.clear();
  start_nocheck_ = false;
}

Status Epochs::can_post(std::span<const int> group, unsigned asserts) const {
  RMA_TRY(assert_error("post", asserts, assert_nocheck | assert_nostore | assert_noput));
  (void)group;
  if (exposure_ == Exposure::post) return sync_error("post", -1, "already inside a post epoch");
  if (access_ == Access::fence)
    return sync_error("post", -1, "inside a fence epoch with operations");
  return Status::ok();
}

void Epochs::did_post(std::span<const int> group, unsigned asserts) {
  exposure_.store(Exposure::post, std::memory_order_relaxed);
  if (access_ == Access::fence_open) access_.store(Access::none, std::memory_order_relaxed);
  post_group_.assign(group.begin(), group.end());
  post_nocheck_ = asserts & assert_nocheck;
}

Status Epochs::can_wait(const char* call) const {
  if (exposure_ != Exposure::post) return sync_error(call, -1, "no post epoch to wait for");
  return Status::ok();
}

void Epochs::did_wait() {
  exposure_.store(Exposure::none, std::memory_order_relaxed);
  post_group_.clear();
  post_nocheck_ = false;
}

// --- passive target -----------------------------------------------------------------------

Status Epochs::check_lock(int target, unsigned asserts, bool no_locks) const {
  RMA_TRY(assert_error("lock", asserts, assert_nocheck));
  if (no_locks) return sync_error("lock", target, "the window was created with no_locks");
  switch (access_) {
    case Access::pscw:
      return sync_error("lock", target, "inside a start/complete access epoch");
    case Access::fence:
      return sync_error("lock", target, "inside a fence epoch with operations");
    case Access::lock_all:
      return sync_error("lock", target, "inside lock_all");
    default:
      break;
  }
  if (locked(target))
    return sync_error("lock", target, "the target is already locked by this rank");
  return Status::ok();
}

Status Epochs::check_unlock(int target) const {
  if (access_ == Access::lock_all)
    return sync_error("unlock", target, "inside lock_all (use unlock_all)");
  if (access_ != Access::lock || !locked(target))
    return sync_error("unlock", target, "the target is not locked");
  return Status::ok();
}

Status Epochs::can_lock_all(unsigned asserts, bool no_locks) const {
  RMA_TRY(assert_error("lock_all", asserts, assert_nocheck));
  if (no_locks) return sync_error("lock_all", -1, "the window was created with no_locks");
  switch (access_) {
    case Access::none:
    case Access::fence_open:
      break;
    case Access::lock_all:
      return sync_error("lock_all", -1, "already inside lock_all");
    case Access::lock:
      return sync_error("lock_all", -1, "a target is locked");
    case Access::pscw:
      return sync_error("lock_all", -1, "inside a start/complete access epoch");
    case Access::fence:
      return sync_error("lock_all", -1, "inside a fence epoch with operations");
  }
  return Status::ok();
}

void Epochs::did_lock_all(unsigned asserts) {
  access_.store(Access::lock_all, std::memory_order_relaxed);
  if (exposure_ == Exposure::fence) exposure_.store(Exposure::none, std::memory_order_relaxed);
  lock_all_nocheck_ = asserts & assert_nocheck;
}

Status Epochs::can_unlock_all() const {
  if (access_ != Access::lock_all) return sync_error("unlock_all", -1, "not inside lock_all");
  return Status::ok();
}

void Epochs::did_unlock_all() {
  access_.store(Access::none, std::memory_order_relaxed);
  lock_all_nocheck_ = false;
}

Status Epochs::can_flush(const char* call, int target) const {
  if (access_ == Access::lock_all) return Status::ok();
  if (access_ == Access::lock) {
    if (target < 0 || locked(target)) return Status::ok();
    return sync_error(call, target, "the target is not locked");
  }
  return sync_error(call, target, "only allowed in a passive-target (lock) epoch");
}

// --- communication ------------------------------------------------------------------------

Status Epochs::check_access(const char* call, int target, bool request_based) const {
  const bool null_target = target == proc_null;
  if (request_based && access_ != Access::lock && access_ != Access::lock_all)
    return sync_error(call, target, "request-based operations need a passive-target epoch");
  switch (access_) {
    case Access::none:
      return sync_error(call, target, "no access epoch is open");
    case Access::fence_open:
    case Access::fence:
    case Access::lock_all:
      return Status::ok();
    case Access::pscw:
      if (null_target || in_start_group(target)) return Status::ok();
      return sync_error(call, target, "the target is not in the start group");
    case Access::lock:
      if (null_target || locked(target)) return Status::ok();
      return sync_error(call, target, "the target is not locked");
  }
  return Status::ok();
}

Status Epochs::can_free() const {
  switch (access_) {
    case Access::lock:
      return sync_error("free", -1, "a target is still locked");
    case Access::lock_all:
      return sync_error("free", -1, "inside lock_all");
    case Access::pscw:
      return sync_error("free", -1, "inside a start/complete access epoch");
    case Access::fence:
      return sync_error("free", -1, "a fence epoch has operations not completed by a fence");
    default:
      break;
  }
  if (exposure_ == Exposure::post)
    return sync_error("free", -1, "inside a post/wait exposure epoch");
  return Status::ok();
}

}  // namespace rma::core
