#include "progress/call_tracker.hpp"

namespace rma::progress {
namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void CallTracker::set_blocked(std::string_view waiting_for) {
  {
    std::lock_guard g(mu_);
    waiting_for_.assign(waiting_for);
  }
  blocked_since_ns_.store(now_ns(), std::memory_order_relaxed);
  blocked_.store(true, std::memory_order_release);
}

void CallTracker::clear_blocked() {
  blocked_.store(false, std::memory_order_relaxed);
}

CallState CallTracker::snapshot() const {
  CallState s;
  const char* call = call_.load(std::memory_order_acquire);
  if (!call) return s;
  s.call = call;
  s.window = window_.load(std::memory_order_relaxed);
  s.target = target_.load(std::memory_order_relaxed);
  s.blocked = blocked_.load(std::memory_order_acquire);
  if (s.blocked) {
    s.since_s =
        static_cast<double>(now_ns() - blocked_since_ns_.load(std::memory_order_relaxed)) * 1e-9;
    std::lock_guard g(mu_);
    s.waiting_for = waiting_for_;
  }
  return s;
}

}  // namespace rma::progress
