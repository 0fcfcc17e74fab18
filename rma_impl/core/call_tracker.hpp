// call_tracker.hpp — which library call the rank's application thread is in, whether it is
// blocked, and since when: what a deadlock report shows for each rank.
//
// The generic layer opens a CallScope at every public entry point; wait loops mark the call
// blocked with what they wait for. snapshot() may be called from any thread.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <string_view>

#include "rma/state.hpp"

namespace rma::core {

class CallTracker {
 public:
  void enter(std::string_view call, int window, int target);
  void leave();
  void set_blocked(std::string_view waiting_for);
  void clear_blocked();
  CallState snapshot() const;

 private:
  mutable std::mutex mu_;
  int depth_ = 0;
  std::string call_;
  int window_ = -1;
  int target_ = -2;
  bool blocked_ = false;
  std::string waiting_for_;
  std::chrono::steady_clock::time_point since_;
};

// Opens a call for the duration of a scope; nested scopes keep the outermost call's name.
class CallScope {
 public:
  CallScope(CallTracker& t, std::string_view call, int window = -1, int target = -2) : t_(t) {
    t_.enter(call, window, target);
  }
  ~CallScope() { t_.leave(); }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

 private:
  CallTracker& t_;
};

}  // namespace rma::core
