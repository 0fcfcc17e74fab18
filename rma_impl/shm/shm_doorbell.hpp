// shm_doorbell.hpp — a rank's doorbell in shared memory: an event count a sender rings and
// an idle thread of the receiving rank blocks on (a futex, so across processes).
//
// `awake` counts the rank's threads that are polling right now; a sender rings only when
// none is awake and some thread sleeps, so a polling receiver costs its senders nothing.
// A sleeper registers, re-checks for work, then waits on `seq` with the value it read
// before the check; a ring in between changes `seq`, so no wake-up is ever lost. Every
// access on either side of the handshake (ring tails, sleepers, awake) is seq_cst, which
// orders each side's store before its load without a separate fence.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace rma::shm {

struct alignas(64) Doorbell {
  std::atomic<std::uint32_t> seq{0};
  std::atomic<std::uint32_t> sleepers{0};
  // On a line of its own: the rank's threads change it at every wait, while senders read the
  // line above at every packet. Apart, a sender reads `sleepers` from its own cache (it
  // changes only when a thread goes to sleep) and the waiter's changes to `awake` stay in
  // its cache: no cache-line handoff on either side of a message.
  alignas(64) std::atomic<std::uint32_t> awake{0};

  // Sender side, after publishing a packet. Returns true if it had to ring. `sleepers`
  // first, inline: it is zero in the common case, and its line is rarely written.
  bool notify() {
    if (sleepers.load(std::memory_order_seq_cst) == 0) return false;
    return notify_awake();
  }
  // Unconditional wake of every sleeper.
  void ring();
  std::uint32_t prepare() {
    sleepers.fetch_add(1, std::memory_order_seq_cst);
    return seq.load(std::memory_order_seq_cst);
  }
  void wait(std::uint32_t token, std::chrono::microseconds timeout);
  void cancel() { sleepers.fetch_sub(1, std::memory_order_seq_cst); }

 private:
  bool notify_awake();
};

}  // namespace rma::shm
