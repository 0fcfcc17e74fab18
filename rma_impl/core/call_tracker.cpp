#include "core/call_tracker.hpp"

namespace rma::core {

void CallTracker::enter(std::string_view call, int window, int target) {
  std::lock_guard g(mu_);
  if (depth_++ > 0) return;
  call_.assign(call);
  window_ = window;
  target_ = target;
  blocked_ = false;
  waiting_for_.clear();
  since_ = std::chrono::steady_clock::now();
}

void CallTracker::leave() {
  std::lock_guard g(mu_);
  if (--depth_ > 0) return;
  call_.clear();
  window_ = -1;
  target_ = -2;
  blocked_ = false;
  waiting_for_.clear();
}

void CallTracker::set_blocked(std::string_view waiting_for) {
  std::lock_guard g(mu_);
  blocked_ = true;
  waiting_for_.assign(waiting_for);
}

void CallTracker::clear_blocked() {
  std::lock_guard g(mu_);
  blocked_ = false;
  waiting_for_.clear();
}

CallState CallTracker::snapshot() const {
  std::lock_guard g(mu_);
  CallState s;
  if (depth_ == 0) return s;
  s.call = call_;
  s.window = window_;
  s.target = target_;
  s.blocked = blocked_;
  s.waiting_for = waiting_for_;
  s.since_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count();
  return s;
}

}  // namespace rma::core
