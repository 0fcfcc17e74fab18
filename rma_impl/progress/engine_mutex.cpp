// The contended half of EngineMutex: a short spin, then a futex sleep, and the barrier that
// lets unlock do without a locked instruction (engine_mutex.hpp).
#include "progress/engine_mutex.hpp"

#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "progress/cpu_relax.hpp"

namespace rma::progress {
namespace {

// Private futex operations: the word lives in this process only.
void futex(std::atomic<int>* word, int op, int val, const timespec* timeout = nullptr) {
  ::syscall(SYS_futex, reinterpret_cast<int*>(word), op | FUTEX_PRIVATE_FLAG, val, timeout, nullptr,
            0);
}

long membarrier(int cmd) {
  return ::syscall(SYS_membarrier, cmd, 0, 0);
}

// Registration must precede a process's first MEMBARRIER_CMD_PRIVATE_EXPEDITED.
bool register_membarrier() {
  const long cmds = membarrier(MEMBARRIER_CMD_QUERY);
  return cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0 &&
         membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

// A full barrier on every running thread of the process. A process the registration did
// not reach (one forked before it, or a kernel that does not carry it over fork) registers
// on its first use.
bool barrier_every_thread() {
  return membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0 ||
         (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0 &&
          membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0);
}

}  // namespace

const bool EngineMutex::sleepers_pay_ = register_membarrier();

void EngineMutex::lock_contended() {
  // The holder is most often a wait loop that lets go within a poll or two.
  constexpr int kSpins = 100;
  for (int i = 0; i < kSpins; ++i) {
    cpu_relax();
    int free = 0;
    if (state_.load(std::memory_order_relaxed) == 0 &&
        state_.compare_exchange_weak(free, 1, std::memory_order_acquire, std::memory_order_relaxed))
      return;
  }
  for (;;) {
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    // Every thread of the process runs a full barrier now: an unlock whose load of the count
    // missed us has its store of "free" visible to the attempt below.
    // Without that barrier the sleep is bounded: an unlock that missed us costs a
    // millisecond, never a hang. That covers a failed barrier, and also a sleeper that read
    // sleepers_pay_ before static initialisation set it while an unlock read it after (a
    // plain store then, with nobody to order it); once set, unlocks that exchange never
    // miss a sleeper, and the bound only adds a wake-up per millisecond of sleep.
    const bool ordered = sleepers_pay_ && barrier_every_thread();
    int free = 0;
    const bool got = state_.compare_exchange_strong(free, 1, std::memory_order_seq_cst,
                                                    std::memory_order_seq_cst);
    static constexpr timespec kBounded{0, 1000000};
    // Returns at once if the lock is free by now.
    if (!got) futex(&state_, FUTEX_WAIT, 1, ordered ? nullptr : &kBounded);
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
    if (got) return;
    free = 0;
    if (state_.compare_exchange_strong(free, 1, std::memory_order_acquire,
                                       std::memory_order_relaxed))
      return;
  }
}

void EngineMutex::wake_one() {
  futex(&state_, FUTEX_WAKE, 1);
}

}  // namespace rma::progress
