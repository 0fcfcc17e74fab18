// The shm direct path's per-window state (see shm_win.hpp): where the control segment keeps
// each rank's lock, flags, post and done counters and stripe locks, and what a state dump
// shows of them.
#include "shm/shm_win.hpp"

#include <string>

namespace rma::shm {
namespace {

constexpr std::size_t align64(std::size_t n) {
  return (n + 63) & ~std::size_t{63};
}

}  // namespace

// --- layout of the control segment
// ----------------------------------------------------------------

// header: barrier, sync word; then per rank: passive lock, lock-waiting flags (one byte per
// rank), posts and dones (one word per rank each), stripe locks.
ControlLayout::ControlLayout(int n, std::size_t stripes_per_rank)
    : ranks(n), stripes(stripes_per_rank) {
  const auto un = static_cast<std::size_t>(n);
  block = align64(sizeof(PassiveLock) + align64(un) + 2 * align64(4 * un) + align64(4 * stripes));
  total = kHeader + block * un;
}

SharedBarrier& ShmWin::barrier() {
  return *static_cast<SharedBarrier*>(control->data());
}
std::atomic<std::uint64_t>& ShmWin::sync_word() {
  return *reinterpret_cast<std::atomic<std::uint64_t>*>(static_cast<std::byte*>(control->data()) +
                                                        64);
}
std::atomic<std::uint8_t>& ShmWin::lock_waiting(int rank, int waiter) {
  return reinterpret_cast<std::atomic<std::uint8_t>*>(block(rank) + sizeof(PassiveLock))[waiter];
}
std::atomic<std::uint32_t>& ShmWin::posts(int origin, int target) {
  const auto un = static_cast<std::size_t>(layout.ranks);
  return reinterpret_cast<std::atomic<std::uint32_t>*>(block(origin) + sizeof(PassiveLock) +
                                                       align64(un))[target];
}
std::atomic<std::uint32_t>& ShmWin::dones(int target, int origin) {
  const auto un = static_cast<std::size_t>(layout.ranks);
  return reinterpret_cast<std::atomic<std::uint32_t>*>(block(target) + sizeof(PassiveLock) +
                                                       align64(un) + align64(4 * un))[origin];
}
StripeLock& ShmWin::stripe(int rank, std::size_t i) {
  const auto un = static_cast<std::size_t>(layout.ranks);
  return reinterpret_cast<StripeLock*>(block(rank) + sizeof(PassiveLock) + align64(un) +
                                       2 * align64(4 * un))[i];
}

Result<SharedRegion> ShmWin::shared_query(int rank) const {
  const PeerMemory& p = peers[static_cast<std::size_t>(rank)];
  if (!p.base && p.size)
    return Status{ErrorClass::rma_flavor,
                  "shared_query: rank " + std::to_string(rank) + "'s memory is not mapped here"};
  return SharedRegion{p.base, p.size, p.disp_unit, p.keeper};
}

void ShmWin::describe(WindowState& s) const {
  // This rank's lock word, as other ranks see it: the ticket queue and who is inside.
  if (control) {
    auto& self = const_cast<ShmWin&>(*this);
    std::string text;
    for (int r = 0; r < layout.ranks; ++r) {
      PassiveLock& l = self.lock(r);
      const auto next = l.next_ticket.load(), head = l.head.load();
      const auto readers = l.readers.load(), writer = l.writer.load(), waiting = l.waiting.load();
      if (next == 0 && readers == 0 && writer == 0) continue;
      text += (text.empty() ? "" : "; ") + std::string("rank ") + std::to_string(r) + ": tickets " +
              std::to_string(next) + ", head " + std::to_string(head) + ", readers " +
              std::to_string(readers) + ", writer " + std::to_string(writer) + ", waiting " +
              std::to_string(waiting);
    }
    s.lock_holders = text;
  }
  for (std::size_t t = 0; locks && t < locks->on.size(); ++t) {
    const core::LockHeld h = locks->at(static_cast<int>(t));
    if (h == core::LockHeld::none) continue;
    TargetState ts;
    ts.target = static_cast<int>(t);
    ts.lock = h == core::LockHeld::shared      ? "held shared (shared words)"
              : h == core::LockHeld::exclusive ? "held exclusive (shared words)"
                                               : "nocheck";
    s.targets.push_back(ts);
  }
}

}  // namespace rma::shm
