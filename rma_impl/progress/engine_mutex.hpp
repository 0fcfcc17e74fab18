// engine_mutex.hpp — the lock that guards a rank's protocol state (Engine::mutex()).
//
// Every library call takes it, and a wait loop gives it up and takes it again while it polls,
// so an uncontended lock and unlock are on the path of every message. This one does both
// inline with one atomic instruction each; only a contended lock leaves the fast path: it
// spins briefly (the holder is usually a wait loop about to let go), then sleeps on a futex.
// The states are Drepper's ("Futexes Are Tricky"): 0 free, 1 locked, 2 locked and a thread
// may sleep on it (its unlock then wakes one).
//
//   EngineLock lk(engine.mutex());   // std::unique_lock<EngineMutex>
#pragma once

#include <atomic>
#include <mutex>

namespace rma::progress {

class EngineMutex {
 public:
  EngineMutex() = default;
  EngineMutex(const EngineMutex&) = delete;
  EngineMutex& operator=(const EngineMutex&) = delete;

  void lock() {
    int free = 0;
    if (!state_.compare_exchange_strong(free, 1, std::memory_order_acquire,
                                        std::memory_order_relaxed))
      lock_contended();
  }
  bool try_lock() {
    int free = 0;
    return state_.compare_exchange_strong(free, 1, std::memory_order_acquire,
                                          std::memory_order_relaxed);
  }
  void unlock() {
    if (state_.exchange(0, std::memory_order_release) == 2) wake_one();
  }

 private:
  void lock_contended();
  void wake_one();

  std::atomic<int> state_{0};
};

using EngineLock = std::unique_lock<EngineMutex>;

}  // namespace rma::progress
