// shm_words.hpp — synchronization objects that live in a window's shared control segment,
// used by the direct path in place of packets.
//
// PassiveLock: the passive-target lock of one rank's window, with the am lock manager's
// semantics — shared with shared, exclusive alone, and strict FIFO (a ticket each; the head
// waits until it is compatible, so a shared request never overtakes a waiting exclusive one).
// StripeLock: a futex mutex guarding one stripe of a window's regions for accumulates that
// no CPU instruction can make atomic. Everything is lock-free atomics on shared words; waiters
// of the passive lock block through the runtime's wait loop (they must keep making
// progress), stripe waiters on a futex (critical sections are short and never wait).
#pragma once

#include <atomic>
#include <cstdint>

#include "core/fault.hpp"

namespace rma::shm {

struct alignas(64) PassiveLock {
  std::atomic<std::uint64_t> next_ticket{0};
  std::atomic<std::uint64_t> head{0};     // the ticket allowed to try to enter
  std::atomic<std::uint32_t> readers{0};  // shared holders
  std::atomic<std::uint32_t> writer{0};   // 1 while an exclusive holder is in
  std::atomic<std::uint32_t> waiting{0};  // ranks blocked on this lock (who to wake)

  std::uint64_t take_ticket() { return next_ticket.fetch_add(1, std::memory_order_seq_cst); }
  // The ticket's turn has come and the lock is compatible: enter and pass the head on.
  bool try_enter(std::uint64_t ticket, bool exclusive);
  void leave(bool exclusive);
};

// Inline: every lock and unlock of the direct path passes them. Only the ticket at the head
// ever enters, so the checks below cannot be invalidated by another entrant; holders
// leaving only make the lock more compatible.
inline bool PassiveLock::try_enter(std::uint64_t ticket, bool exclusive) {
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

inline void PassiveLock::leave(bool exclusive) {
  if (core::fault(core::Fault::grant_ignores_table)) return;
  if (exclusive)
    writer.store(0, std::memory_order_seq_cst);
  else
    readers.fetch_sub(1, std::memory_order_seq_cst);
}

struct StripeLock {
  std::atomic<std::uint32_t> word{0};  // 0 free, 1 held, 2 held with waiters
  void lock();
  void unlock();
};

// A barrier over the window's ranks: the last to arrive bumps the generation.
struct alignas(64) SharedBarrier {
  std::atomic<std::uint32_t> arrived{0};
  std::atomic<std::uint32_t> generation{0};
};

}  // namespace rma::shm
