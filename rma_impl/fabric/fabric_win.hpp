// fabric_win.hpp — the fabric backend's direct path: window memory registered with the
// provider, so puts and gets are fi_write/fi_read and accumulate-style ops fi_atomic,
// fi_fetch_atomic and fi_compare_atomic where fi_query_atomic says the (op, dtype) is native.
// Everything else goes to the am slots, counted as am_fallback, and is complete when its call
// returns (so no am op is ever pending across a direct synchronization).
//
// Synchronization sends no RMA packet: it travels as control messages of the fabric
// transport (counted as sync_word, like the shm direct path's shared words), ordered with
// the packets of the same pair:
//   - passive target (the generic layer's lock epochs over this backend's acquire and
//     release, core/direct_sync.hpp): lock() sends a lock request to the target's lock manager
//     (core::LockManager) and waits for the grant (lock_all: at the first op to each
//     target), so no native op touches the target's memory before; unlock waits for remote
//     completion of the native ops (FI_DELIVERY_COMPLETE) and sends the release;
//   - except the epoch a rank opens while it holds no other lock (fabric_sync.cpp,
//     "deferred"): lock() sends nothing, a single put or get of up to 4 KiB is kept, and
//     unlock sends it with the lock request and the release in one control message, which
//     the target carries out once it can grant and answers with `released` (a get's data
//     in it): one round trip. Anything else in the epoch (a second op, a flush, another
//     lock) first acquires the lock as above, the kept op riding on the request.
//   - fence and PSCW are the generic layer's (core/direct_sync.hpp) over this backend's
//     primitives: remote completion of the native ops (complete_ops), a dissemination
//     barrier of control messages, and post and done as control messages.
// Providers with manual progress get target-side progress from the runtime's agent, which
// polls the transport.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/lock_manager.hpp"
#include "core/win.hpp"
#include "fabric/fabric_atomics.hpp"
#include "fabric/fabric_endpoint.hpp"
#include "fabric/fabric_transport.hpp"

namespace rma::core {
struct WindowOps;
class RuntimeImpl;
}  // namespace rma::core

namespace rma::fabric {

// `base` with the generic synchronization over this backend's primitives and its own sync,
// request and free slots (fabric_sync.cpp): the direct table before its data slots.
core::WindowOps direct_sync_table(const core::WindowOps& base);

// A synchronization message of the direct path (a control message of the transport).
struct Control {
  enum Type : std::uint8_t {
    lock_shared,
    lock_exclusive,
    grant,
    unlock,
    post,
    done,
    barrier,
    op_lock,   // a lock request carrying a put or a get (OpLock, then a put's data)
    released,  // the answer to an op_lock with `release`: done, the lock given back (a
               // get's data follows; a grant answering an op_lock carries it the same way)
  };
  std::uint32_t win = 0;
  Type type = lock_shared;
  std::uint8_t reserved[3] = {};
  std::uint32_t epoch = 0;  // barrier: which fence
  std::uint32_t round = 0;  // barrier: which step
};
static_assert(sizeof(Control) == 16);

// After an op_lock's Control: which bytes of the window, and what to do once granted.
struct OpLock {
  std::uint64_t disp = 0;  // bytes into the target's window
  std::uint32_t bytes = 0;
  std::uint8_t exclusive = 0;
  std::uint8_t release = 0;  // 1: give the lock back and answer `released`; 0: answer `grant`
  std::uint8_t get = 0;      // 1: read the bytes and send them back; 0: write the data
  std::uint8_t reserved = 0;
};
static_assert(sizeof(OpLock) == 16);

class FabricWin;

// Lock epochs of this rank's direct windows (one per backend): deferral is only safe while
// the deferred epoch is the rank's only lock, because a deferred lock is acquired at unlock
// rather than at lock(). A rank that then opens another lock epoch acquires the deferred
// one first, so locks are still acquired in the order lock() was called.
struct LockEpochs {
  int open = 0;  // lock and lock_all epochs open on direct windows, nocheck ones excluded
  FabricWin* deferred_win = nullptr;
  int deferred_target = -1;
};

// One native operation in flight: its completion updates the window's counts.
struct NativeOp : Completion {
  FabricWin* win = nullptr;
  bool accumulate = false;  // counts for accumulate ordering
  std::shared_ptr<core::RequestState> request;
  // A derived-type op's packed buffers: the provider may read the origin's (a put) or write
  // the result's until the completion, after the call that packed them has returned.
  std::shared_ptr<core::DerivedParts> derived;
  std::array<std::byte, 16> operands{};  // fetch_and_op / compare_and_swap values, copied
};

class FabricWin final : public core::BackendWin {
 public:
  FabricWin(core::Win& w, FabricTransport& t, const AtomicTable& atomics);
  ~FabricWin() override;

  struct Peer {
    std::uint64_t addr = 0;  // what RMA calls name for byte 0 of its window
    std::uint64_t key = 0;
    std::uint64_t vaddr = 0;  // its real address, for alignment checks
  };

  core::Win& w;
  FabricTransport& transport;
  const AtomicTable& atomics;
  std::vector<Peer> peers;
  MemoryRegion mr;
  // Where the backend finds this window for its control messages; erased on destruction.
  std::map<std::uint32_t, FabricWin*>* registry = nullptr;

  // --- native ops in flight (origin side) ---
  std::vector<std::uint32_t> in_flight;      // per target
  std::vector<std::uint32_t> acc_in_flight;  // accumulate-style, per target
  std::uint32_t total_in_flight = 0;
  std::uint32_t max_in_flight;  // before an op call waits for completions
  Status failure;               // the first native op that failed since the last synchronization
  NativeOp* take_op();
  void give_back(NativeOp* op);
  static void op_done(Completion& c, std::size_t len, int err);

  // --- passive target (which lock each target's epoch holds is the core's: Win::locks) ---
  // Where each target's lock request is, origin side: deferred (fabric_sync.cpp) or asked
  // for, until the grant comes; none again once given back.
  enum class Grant : std::uint8_t { none, deferred, requested, granted };
  std::vector<Grant> grants;        // per target
  std::vector<LockType> requested;  // the type asked for while `requested` or `deferred`
  // The op kept in the deferred epoch (at most one, to deferred_target of `epochs`): a put
  // with its data, or a get with where its answer goes.
  struct KeptOp {
    bool present = false;
    bool get = false;
    std::uint64_t disp = 0;
    std::size_t bytes = 0;
    std::vector<std::byte> data;  // a put's
    std::byte* result = nullptr;  // a get's
  } kept;
  // A get sent with an op_lock: its answer (grant or released) is copied here.
  std::byte* get_result = nullptr;
  std::size_t get_bytes = 0;
  int get_target = -1;
  std::vector<std::uint8_t> released;  // per target: its `released` answer came
  LockEpochs* epochs = nullptr;        // the backend's; null: no deferral
  core::LockManager locks;             // target side

  // --- PSCW (how many the generic layer has taken: core::Win::taken) ---
  std::vector<std::uint32_t> posts_received;  // from each target
  std::vector<std::uint32_t> dones_received;  // from each origin

  // --- fence ---
  std::uint32_t barrier_epoch = 0;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> barrier_in;  // (epoch, round)

  void send(int dst, Control::Type type, std::uint32_t epoch = 0, std::uint32_t round = 0);
  // `msg` is the whole control message (an op_lock's data follows its Control).
  void on_control(int src, std::span<const std::byte> msg);
  void grant(const core::LockRequest& r);
  // Sends the kept op of the deferred epoch on `t` with its lock request; `release`: and
  // the release in the same message.
  void send_op_lock(int t, bool release);
  // Target side of a granted op_lock: `body` is its OpLock and a put's data.
  void apply_op_lock(int origin, std::span<const std::byte> body);
  // Origin side: the data that came with a grant or `released` is the kept get's answer.
  void take_get_answer(int src, std::span<const std::byte> data);

  void describe(WindowState& s) const override;

 private:
  std::vector<std::unique_ptr<NativeOp>> pool_;
  std::vector<NativeOp*> free_;
};

// The slots' synchronization helpers (fabric_sync.cpp), shared with the data ops.
Status ensure_access(core::Call& c, int target);
// Keeps `op` in its target's deferred epoch if it may travel with the lock request there.
bool keep_in_deferred_epoch(core::Call& c, const core::RmaOp& op);
Status wait_native(core::Call& c, int target);  // target -1: every target
Status wait_for(core::Call& c, const char* what, int peer, const std::function<bool()>& pred);
inline FabricWin& fabric_win(core::Call& c) {
  return static_cast<FabricWin&>(*c.w.backend);
}

}  // namespace rma::fabric
