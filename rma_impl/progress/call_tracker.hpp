// call_tracker.hpp — which library call the rank's application thread is in, whether it is
// blocked, and since when: what a deadlock report shows for each rank.
//
// The generic layer opens a CallScope at every public entry point; wait loops mark the call
// blocked with what they wait for. Entering and leaving a call are two relaxed stores (every
// put pays for them); only blocking, which is rare and slow anyway, takes the mutex that
// guards the text of what is awaited. snapshot() may be called from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <string_view>

#include "rma/state.hpp"

namespace rma::progress {

class CallTracker {
 public:
  // `call` must be a string with static storage (the entry points pass literals). Inlined by
  // force: every call of the library passes both, and GCC 12 left them out of line in the
  // larger entry points (11 and 7 instructions more per call, callgrind).
  [[gnu::always_inline]] void enter(const char* call, int window, int target) {
    if (depth_.load(std::memory_order_relaxed) == 0) {
      window_.store(window, std::memory_order_relaxed);
      target_.store(target, std::memory_order_relaxed);
      call_.store(call, std::memory_order_release);
    }
    depth_.store(depth_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  [[gnu::always_inline]] void leave() {
    const int d = depth_.load(std::memory_order_relaxed) - 1;
    depth_.store(d, std::memory_order_relaxed);
    if (d == 0) {
      blocked_.store(false, std::memory_order_relaxed);
      call_.store(nullptr, std::memory_order_release);
    }
  }
  void set_blocked(std::string_view waiting_for);
  void clear_blocked();
  CallState snapshot() const;

 private:
  // Written by the application thread only; read by state dumps.
  std::atomic<int> depth_{0};
  std::atomic<const char*> call_{nullptr};
  std::atomic<int> window_{-1};
  std::atomic<int> target_{-2};
  std::atomic<bool> blocked_{false};
  std::atomic<std::int64_t> blocked_since_ns_{0};

  mutable std::mutex mu_;  // guards waiting_for_
  std::string waiting_for_;
};

// Opens a call for the duration of a scope; nested scopes keep the outermost call's name.
class CallScope {
 public:
  CallScope(CallTracker& t, const char* call, int window = -1, int target = -2) : t_(t) {
    t_.enter(call, window, target);
  }
  ~CallScope() { t_.leave(); }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

 private:
  CallTracker& t_;
};

}  // namespace rma::progress
