// The shared-word objects of shm_words.hpp: the passive lock's FIFO and the stripe futex.
#include "shm/shm_words.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>

#include "core/fault.hpp"
#include "progress/cpu_relax.hpp"

namespace rma::shm {
namespace {

using progress::cpu_relax;

long futex(std::atomic<std::uint32_t>* addr, int op, std::uint32_t val) {
  return ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(addr), op, val, nullptr, nullptr, 0);
}

}  // namespace

// Only the ticket at the head ever enters, so the checks below cannot be invalidated by
// another entrant; holders leaving only make the lock more compatible.
bool PassiveLock::try_enter(std::uint64_t ticket, bool exclusive) {
  if (core::fault(core::Fault::grant_ignores_table)) {
    // Everyone enters at once, in any order.
    head.fetch_add(1, std::memory_order_seq_cst);
    return true;
  }
  // Acquire loads see everything the previous holders wrote before they left; the head is
  // published with release after the holder state, so whoever is next sees both.
  if (head.load(std::memory_order_acquire) != ticket) return false;
  if (exclusive) {
    if (writer.load(std::memory_order_acquire) || readers.load(std::memory_order_acquire))
      return false;
    writer.store(1, std::memory_order_relaxed);
  } else {
    if (writer.load(std::memory_order_acquire)) return false;
    readers.fetch_add(1, std::memory_order_acq_rel);
  }
  head.store(ticket + 1, std::memory_order_release);
  return true;
}

void PassiveLock::leave(bool exclusive) {
  if (core::fault(core::Fault::grant_ignores_table)) return;
  if (exclusive)
    writer.store(0, std::memory_order_seq_cst);
  else
    readers.fetch_sub(1, std::memory_order_seq_cst);
}

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
