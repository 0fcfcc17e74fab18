// win.hpp — a window inside the implementation: what every path shares (memory, the peers'
// sizes and displacement units, the epoch state, the table of operations) and the RmaOp the
// generic layer hands to the table once a call has been validated.
//
// The generic layer (window.cpp) owns the semantics: arguments, ranges, epochs, errors. A
// table slot only does the mechanics, and only for calls that passed those checks.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/epoch.hpp"
#include "core/window_info.hpp"
#include "progress/engine_mutex.hpp"
#include "progress/packet.hpp"
#include "rma/counters.hpp"
#include "rma/datatype.hpp"
#include "rma/state.hpp"
#include "rma/types.hpp"
#include "rma/window.hpp"

namespace rma::progress {
class Engine;
}

namespace rma::core {

class RuntimeImpl;
class Win;
struct WindowOps;

// The packet protocol's per-window state (am/), which every window has beside its table: it
// receives the window's RMA packets, whatever the table, and describes itself in state dumps.
class ProtocolWin {
 public:
  virtual ~ProtocolWin() = default;
  virtual void on_packet(int src, const progress::PacketHeader& h,
                         std::span<const std::byte> payload) = 0;
  virtual void describe(WindowState& s) const = 0;
  // Whether an op with this target layout can go as one op whole (DerivedParts::target);
  // else the generic layer issues it as pieces.
  virtual bool carries(const Layout& target) const = 0;
};

// Mechanics a backend keeps per window (e.g. the shm direct path's mapped peers).
class BackendWin {
 public:
  virtual ~BackendWin() = default;
  virtual void describe(WindowState& s) const { (void)s; }
  // Another rank's memory, when this rank has it mapped (shared windows, the direct path).
  virtual Result<SharedRegion> shared_query(int rank) const {
    return Status{ErrorClass::rma_flavor,
                  "shared_query: rank " + std::to_string(rank) + "'s memory is not mapped here"};
  }
  // The window is being freed, its epochs all closed: drop what lower layers keep of its
  // peers' memory before the ranks' last barrier, so that no peer can reuse that memory
  // while this rank still knows it by address.
  virtual void freeing() {}
};

struct PeerWin {
  std::uint64_t size = 0;
  int disp_unit = 1;
  // The peer's memory as this rank maps it, set only where the table lets the generic layer
  // copy a small contiguous put or get itself (WindowOps::copies_mapped, window_fast.hpp).
  std::byte* mapped = nullptr;

  // Whether `bytes` at `disp` (in this peer's displacement units) lie inside its window, and
  // their byte offset. No division: every op asks.
  bool holds(std::uint64_t disp, std::uint64_t bytes, std::uint64_t& offset) const {
    return !__builtin_mul_overflow(disp, static_cast<std::uint64_t>(disp_unit), &offset) &&
           offset <= size && bytes <= size - offset;
  }
};

// The direct path's active-target state at this rank, kept by the generic layer
// (core/direct_sync.cpp): the signals taken so far from each peer, and which targets' posts
// the current access epoch has seen. Sized at the first post or start.
struct SignalsTaken {
  std::vector<std::uint32_t> posts, dones;
  std::vector<std::uint8_t> post_seen;
};

// The direct path's passive-target state at this rank, kept by the generic layer
// (core/direct_sync.cpp): which lock it holds on each target. Whether lock_all is open, and
// with nocheck, is the epoch tracker's (Epochs).
enum class LockHeld : std::uint8_t { none, shared, exclusive, nocheck };
struct LocksHeld {
  explicit LocksHeld(int ranks) : on(static_cast<std::size_t>(ranks)) {}
  // Atomic only so that a state dump may read them from another thread.
  std::vector<std::atomic<LockHeld>> on;
  LockHeld at(int target) const {
    return on[static_cast<std::size_t>(target)].load(std::memory_order_relaxed);
  }
  void set(int target, LockHeld h) {
    on[static_cast<std::size_t>(target)].store(h, std::memory_order_relaxed);
  }
};

// Completion of a request-based operation.
struct RequestState {
  Win* win = nullptr;
  int target = -1;
  // Set by whichever thread's progress completes the op (the progress agent's, say, under
  // the engine lock), and read by Request::wait and test before they take that lock: so it
  // is atomic, and `status` is written before it.
  std::atomic<bool> done{false};
  Status status;
  // A derived-type op issued as several pieces: one state each, all done when it is.
  std::vector<std::shared_ptr<RequestState>> parts;
};

// A derived-type op the slot carries whole (window_layout.cpp): the target layout, relative
// to the op's `disp` (type null where the target side is contiguous); the op's `count` and
// `dtype` then describe the data in signature order (the one basic type of an accumulate,
// else bytes), packed into these buffers where a side is not contiguous. A packed result
// goes to `unpack_to` (laid out as `unpack`) when the op completes locally. Built once;
// whoever holds the op until its data has moved (the am queue, a native fabric op) holds
// these too.
struct DerivedParts {
  Layout target;
  std::vector<std::byte> packed_origin, packed_result;
  void* unpack_to = nullptr;
  Layout unpack;
};

// One communication call, validated, with its displacement converted to bytes.
struct RmaOp {
  PacketType kind = PacketType::put;  // put, get, accumulate, get_accumulate, fetch_and_op,
                                      // compare_and_swap
  int target = 0;
  std::uint64_t disp = 0;  // bytes into the target window (dynamic: an address)
  std::size_t count = 0;
  Dtype dtype = Dtype::u8;
  Op op = Op::replace;
  const void* origin = nullptr;
  const void* compare = nullptr;
  void* result = nullptr;
  std::shared_ptr<RequestState> request;
  // Only a derived-type op issued whole has these; null for every other op, which then
  // builds and destroys one pointer where it had four (RmaOp is made on every call).
  std::shared_ptr<DerivedParts> derived;

  std::size_t bytes() const { return count * size_of(dtype); }
  bool has_target_layout() const { return derived && derived->target.type; }
  bool unpacks() const { return derived && derived->unpack_to; }
  bool has_response() const {
    return kind == PacketType::get || kind == PacketType::get_accumulate ||
           kind == PacketType::fetch_and_op || kind == PacketType::compare_and_swap;
  }
};

// A call in progress: the window and the engine lock (held, unless the window's table says
// it needs none; a slot that must wait takes it with hold()).
struct Call {
  Win& w;
  progress::EngineLock& lk;
  const char* name;
  void hold() {
    if (!lk.owns_lock()) lk.lock();
  }
};

class Win {
 public:
  Win(RuntimeImpl& rt, std::uint32_t id, Flavor flavor);
  ~Win();

  RuntimeImpl& rt;
  progress::Engine& engine;
  const std::uint32_t id;
  const Flavor flavor;
  Path path = Path::am;  // derived from `ops` when the core installs it
  std::byte* base = nullptr;
  std::size_t size = 0;
  int disp_unit = 1;
  std::shared_ptr<void> memory;  // keeps runtime-allocated memory alive
  WindowInfo info;
  std::vector<PeerWin> peers;
  Epochs epochs;
  SignalsTaken taken;
  LocksHeld locks;
  const WindowOps* ops = nullptr;
  std::unique_ptr<ProtocolWin> am;
  std::unique_ptr<BackendWin> backend;
  bool freed = false;

  // Dynamic windows: the regions this rank attached.
  struct Region {
    std::uintptr_t base;
    std::size_t size;
  };
  std::vector<Region> attached;

 private:
  mutable std::vector<int> all_ranks_;

 public:
  int rank() const;
  int ranks() const;
  // 0 .. ranks()-1, for calls that close every target (built once).
  std::span<const int> all_ranks() const;
  WindowState state() const;

  // The public handles (Win is their friend).
  static std::unique_ptr<rma::Window> wrap(std::unique_ptr<Win> w);
  static rma::Request make_request(std::shared_ptr<RequestState> s);
};

}  // namespace rma::core
