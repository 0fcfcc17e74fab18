// shm_win.hpp — the shm backend's direct path: windows whose memory every rank maps, so
// RMA is loads, stores and CPU atomics instead of packets. (An am window mapped for the
// transport's copies has a ShmWin too, with its peers' memory and no control words.)
//
// put and get are copies into and out of the peer's mapped memory. Accumulate-style ops use
// lock-free CPU atomics where one instruction does the op on an aligned element (integer sum,
// band/bor/bxor, replace, compare_and_swap); every other op, and any unaligned element, is
// applied by the reduce kernel under striped inter-process locks over regions of the window
// (region size tunable with the `region_size` info key; each stripe taken once per request,
// in order). Synchronization is the generic layer's (core/direct_sync.hpp) on shared words:
// a FIFO reader-writer lock per rank for passive target, a barrier, and post and done
// counters per pair; waiters spin briefly, then block on their doorbell, which the rank that
// changes a word rings.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/direct_sync.hpp"
#include "core/win.hpp"
#include "shm/shm_segment.hpp"
#include "shm/shm_transport.hpp"
#include "shm/shm_words.hpp"

namespace rma::shm {

// Where a window's shared control words are (one segment per window, per-rank blocks).
struct ControlLayout {
  static constexpr std::size_t kHeader = 128;  // the barrier and the sync word
  int ranks = 0;
  std::size_t stripes = 0;
  std::size_t block = 0;  // bytes per rank block
  std::size_t total = 0;
  ControlLayout() = default;
  ControlLayout(int n, std::size_t stripes_per_rank);
};

struct PeerMemory {
  std::byte* base = nullptr;
  std::uint64_t address = 0;  // where `base` is in the peer's own process (0: not told)
  std::size_t size = 0;
  int disp_unit = 1;
  std::shared_ptr<void> keeper;  // the mapping stays while anyone views it
};

class ShmWin final : public core::BackendWin {
 public:
  std::vector<PeerMemory> peers;
  // An am window's peers' memory as the transport knows it (map_peer_ranges), until freed.
  std::shared_ptr<void> copy_ranges;
  std::shared_ptr<Segment> control;
  ControlLayout layout;
  std::size_t region_size = 4096;

  // Origin-side state of the direct path; which locks it holds are the core's (state dumps
  // read them there).
  std::vector<std::uint64_t> tickets;
  const core::LocksHeld* locks = nullptr;

  SharedBarrier& barrier();
  std::atomic<std::uint64_t>& sync_word();
  // Inline: every lock and unlock of the direct path finds its target's lock here.
  std::byte* block(int rank) const {
    return static_cast<std::byte*>(control->data()) + ControlLayout::kHeader +
           layout.block * static_cast<std::size_t>(rank);
  }
  PassiveLock& lock(int rank) const { return *reinterpret_cast<PassiveLock*>(block(rank)); }
  std::atomic<std::uint8_t>& lock_waiting(int rank, int waiter);
  std::atomic<std::uint32_t>& posts(int origin, int target);  // posts target made to origin
  std::atomic<std::uint32_t>& dones(int target, int origin);  // dones origin sent to target
  StripeLock& stripe(int rank, std::size_t i);

  void describe(WindowState& s) const override;
  Result<SharedRegion> shared_query(int rank) const override;
  // Without its ranges the transport copies with system calls: safe at any time.
  void freeing() override { copy_ranges.reset(); }
};

// What the topic files share: shm_rma.cpp (data slots), shm_sync.cpp (the generic layer's
// primitives), shm_win.cpp (the control segment, state dumps).
inline ShmWin& shm_win(core::Call& c) {
  return static_cast<ShmWin&>(*c.w.backend);
}
inline void count(core::Call& c, DirectOp d, std::uint64_t n = 1) {
  c.w.engine.count_direct(c.w.id, d, n);
}

// `base` with the generic synchronization over shared words and this backend's sync,
// request and free slots (shm_sync.cpp): the direct table before its data slots.
core::WindowOps direct_sync_table(const core::WindowOps& base);

}  // namespace rma::shm
