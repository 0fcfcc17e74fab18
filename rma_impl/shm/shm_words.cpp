// The stripe futex of shm_words.hpp (the passive lock is inline there).
#include "shm/shm_words.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>

#include "progress/cpu_relax.hpp"

namespace rma::shm {
namespace {

using progress::cpu_relax;

long futex(std::atomic<std::uint32_t>* addr, int op, std::uint32_t val) {
  return ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(addr), op, val, nullptr, nullptr, 0);
}

}  // namespace

void StripeLock::lock() {
  std::uint32_t c = 0;
  if (word.compare_exchange_strong(c, 1, std::memory_order_acquire)) return;
  for (int i = 0; i < 100; ++i) {
    cpu_relax();
    c = 0;
    if (word.compare_exchange_strong(c, 1, std::memory_order_acquire)) return;
  }
  // Mark "held with waiters" and sleep until the holder hands over.
  if (c != 2) c = word.exchange(2, std::memory_order_acquire);
  while (c != 0) {
    futex(&word, FUTEX_WAIT, 2);
    c = word.exchange(2, std::memory_order_acquire);
  }
}

void StripeLock::unlock() {
  if (word.fetch_sub(1, std::memory_order_release) != 1) {
    word.store(0, std::memory_order_release);
    futex(&word, FUTEX_WAKE, 1);
  }
}

}  // namespace rma::shm
