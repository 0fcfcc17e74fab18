// The contended half of EngineMutex: a short spin, then a futex sleep (engine_mutex.hpp).
#include "progress/engine_mutex.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "progress/cpu_relax.hpp"

namespace rma::progress {
namespace {

// Private futex operations: the word lives in this process only.
void futex(std::atomic<int>* word, int op, int val) {
  ::syscall(SYS_futex, reinterpret_cast<int*>(word), op | FUTEX_PRIVATE_FLAG, val, nullptr,
            nullptr, 0);
}

}  // namespace

void EngineMutex::lock_contended() {
  // The holder is most often a wait loop that lets go within a poll or two.
  constexpr int kSpins = 100;
  for (int i = 0; i < kSpins; ++i) {
    cpu_relax();
    int free = 0;
    if (state_.load(std::memory_order_relaxed) == 0 &&
        state_.compare_exchange_weak(free, 1, std::memory_order_acquire,
                                     std::memory_order_relaxed))
      return;
  }
  // Announce a sleeper (2) with every attempt, so that the unlock that frees it wakes one.
  while (state_.exchange(2, std::memory_order_acquire) != 0) futex(&state_, FUTEX_WAIT, 2);
}

void EngineMutex::wake_one() { futex(&state_, FUTEX_WAKE, 1); }

}  // namespace rma::progress
