// engine_mutex.hpp — the lock that guards a rank's protocol state (Engine::mutex()).
//
// Every library call takes it, and a wait loop gives it up and takes it again while it polls,
// so an uncontended lock and unlock are on the path of every message. The lock is one
// compare-and-swap; the unlock is a plain store and a plain load, no locked instruction:
// a locked instruction waits for every store before it to reach the cache, and on the
// message path one of those is the packet just written to a line the receiver holds, a
// cache-line handoff the unlock would wait out (with the other changes of that day, shm am,
// fast placement: lock-put-unlock 0.246 -> 0.234 us, medians; docs/performance.md).
// Only a contended lock leaves the fast path: it spins briefly (the holder is usually a wait
// loop about to let go), then counts itself a sleeper and sleeps on a futex.
//
// Unlock's store of "free" and its load of the sleeper count are not ordered by the CPU; a
// sleeper pays for that ordering instead (an asymmetric Dekker handshake): after counting
// itself, it has the kernel run a full barrier on every thread of the process
// (membarrier(2), MEMBARRIER_CMD_PRIVATE_EXPEDITED) before it looks at the lock once more.
// Where the kernel refuses membarrier, unlock falls back to a locked exchange.
//
// Unlock reads the sleeper count after it has let go, so the mutex must outlive every unlock
// in flight: destroy it only once the threads that used it are joined (Engine's teardown
// stops its agent first), not as soon as one thread holds it again.
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
    if (sleepers_pay_) {
      state_.store(0, std::memory_order_release);
      // Keeps the compiler from hoisting the load below above the store; the CPU may still,
      // which the sleeper's barrier makes harmless.
      std::atomic_signal_fence(std::memory_order_seq_cst);
    } else {
      state_.exchange(0, std::memory_order_seq_cst);  // a full barrier before the load
    }
    if (sleepers_.load(std::memory_order_seq_cst) != 0) wake_one();
  }

 private:
  void lock_contended();
  void wake_one();

  // Whether this process may use membarrier (registered once per process, at start).
  static const bool sleepers_pay_;

  std::atomic<int> state_{0};     // 0 free, 1 held
  std::atomic<int> sleepers_{0};  // threads asleep (or about to be) on state_
};

using EngineLock = std::unique_lock<EngineMutex>;

}  // namespace rma::progress
