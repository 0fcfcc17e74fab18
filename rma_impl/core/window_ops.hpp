// window_ops.hpp — the per-window table of operations (MPICH's USE_MPID_RMA_TABLE).
//
// A window's table is chosen once, at creation, from its path, and installed by the core
// (window_create.cpp) alone. The packet protocol's table (am/am_ops.hpp) fills every slot and
// works on every transport; a backend's direct table starts as a copy of it and overrides
// the slots the backend serves, so a slot it does not serve *is* the am slot, never empty.
// What a backend serves is read from its table (overridden_slots), never declared twice.
// Slots receive calls the generic layer has already validated (arguments, ranges, epochs).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/win.hpp"

namespace rma::core {

// Active-target signals of the direct path: a target's post to each origin of its post
// group, an origin's done to each target of its start group.
enum class Signal : std::uint8_t { post, done };

// How a backend's signals travel, which decides who counts them and what makes them arrive.
enum class SignalPath : std::uint8_t {
  shared_words,  // counters in mapped memory: each read that takes one is a sync_word op,
                 // and they change without progress
  messages,      // control messages: counted where sent, and they arrive only by progress
};

// A passive-target epoch as a backend's lock_epoch hook hears of it (DirectSync).
enum class LockEpoch : std::uint8_t {
  open,    // lock (target) or lock_all (-1) without nocheck, before any lock is taken
  finish,  // unlock of a lock opened so: the backend may carry the epoch out itself
  close,   // unlock or unlock_all of such an epoch, done; or a lock whose acquire failed
};

// What a backend gives the generic layer's direct synchronization (core/direct_sync.hpp),
// as MPICH ch4's transports give its generic layer completion hooks: the generic layer owns
// fence, PSCW, flush and the lock epochs; the backend only says how to tell a peer, what it
// has been told, how to meet every rank, how to complete its own operations, and how to
// take and give back a target's lock.
struct DirectSync {
  SignalPath signals = SignalPath::messages;
  // Tells `peer` (possibly this rank) of this rank's post or done on the window.
  void (*notify)(Call&, Signal kind, int peer) = nullptr;
  // How many signals of `kind` `peer` has sent this rank on the window so far: it only grows,
  // and the generic layer keeps how many it has taken. Read inside waits: no side effects.
  std::uint32_t (*received)(Win&, Signal kind, int peer) = nullptr;
  // Returns once every rank of the window has called it.
  Status (*barrier)(Call&) = nullptr;
  // Completes this rank's operations to `target` (-1: every target) at the target, or with
  // `local` only so that their origin buffers may be reused. Null: every operation is
  // complete at its target when its call returns.
  Status (*complete_ops)(Call&, int target, bool local) = nullptr;

  // Passive target. The generic layer keeps which lock this rank holds on each target
  // (Win::locks) and takes lock_all's at the first op to a target (await_access); these
  // take and give back one lock, whatever the epoch.
  // Takes `target`'s lock for this rank; returns once it is held.
  Status (*acquire)(Call&, int target, LockType type) = nullptr;
  // Gives back the lock acquire took; this rank's ops to `target` are complete there.
  void (*release)(Call&, int target, LockType type) = nullptr;
  // Optional: for a backend whose lock epochs are more than their locks (fabric's deferred
  // epoch, which takes its lock only when something needs it, or sends it with one op and
  // the release in one message at unlock). At `open`, true: lock() takes nothing now (the
  // backend acquires the lock when needed). At `finish`, true: the backend has carried the
  // epoch out whole, and unlock does nothing more. Otherwise false.
  Result<bool> (*lock_epoch)(Call&, LockEpoch ev, int target, LockType type) = nullptr;
  // Whether some ops go to the packet protocol's slots (what the backend cannot do
  // natively): their flush may have taken the am protocol's lock at the target, so unlock
  // and unlock_all close the am table's epoch before giving back their own.
  bool falls_back = false;
  // Set by inline_locks (core/direct_lock.hpp): the lock and unlock slots are the generic
  // ones compiled with this backend's acquire and release inlined, not the table's.
  bool inlined_locks = false;
};

struct WindowOps {
  const char* name;
  // Whether calls must hold the engine lock: yes for packets (the agent shares the state);
  // a table of loads, stores and atomics takes it only to wait (Call::hold()).
  bool needs_engine_lock;
  // Whether this table's put and get slots take a derived-type op whole (its target layout
  // in the op's DerivedParts) when they are not the packet protocol's (which always may,
  // within ProtocolWin::carries); else the core issues them one piece at a time.
  bool direct_layouts = false;
  // With direct_layouts: whether its get may also unpack a result into a non-contiguous
  // origin layout itself (DerivedParts::unpack_to), the moment the data is there; else such a get
  // goes as pieces.
  bool direct_unpacks = false;
  // Whether this table's put and get slots, for a contiguous op in a lock epoch, do nothing
  // but copy to or from the target's memory as the backend's shared_query gives it and count
  // the op, without the engine lock (needs_engine_lock false): the generic layer may then do
  // that itself for small ops (window_fast.hpp).
  bool copies_mapped = false;
  Status (*put)(Call&, RmaOp&);
  Status (*get)(Call&, RmaOp&);
  Status (*accumulate)(Call&, RmaOp&);
  Status (*get_accumulate)(Call&, RmaOp&);
  Status (*fetch_and_op)(Call&, RmaOp&);
  Status (*compare_and_swap)(Call&, RmaOp&);
  Status (*fence)(Call&, unsigned asserts);
  Status (*post)(Call&, std::span<const int> group, unsigned asserts);
  Status (*start)(Call&, std::span<const int> group, unsigned asserts);
  Status (*complete)(Call&);
  Status (*wait)(Call&);
  Result<bool> (*test)(Call&);
  Status (*lock)(Call&, LockType type, int target, unsigned asserts);
  Status (*unlock)(Call&, int target);
  Status (*lock_all)(Call&, unsigned asserts);
  Status (*unlock_all)(Call&);
  Status (*flush)(Call&, int target);
  Status (*flush_local)(Call&, int target);
  Status (*flush_all)(Call&);
  Status (*flush_local_all)(Call&);
  Status (*sync)(Call&);
  Status (*request_wait)(Call&, RequestState& req);
  // One step towards the request's completion (issuing its op if it is still queued).
  Result<bool> (*request_test)(Call&, RequestState& req);
  Status (*free)(Call&);
  // The backend's primitives under the generic direct synchronization; empty in a table
  // that does not use it (with_direct_sync).
  DirectSync direct_sync{};
};

// Every slot, by name: one list for the checks below and for capability reports.
// clang-format off
#define RMA_WINDOW_SLOTS(X) \
  X(put) X(get) X(accumulate) X(get_accumulate) X(fetch_and_op) X(compare_and_swap) \
  X(fence) X(post) X(start) X(complete) X(wait) X(test) \
  X(lock) X(unlock) X(lock_all) X(unlock_all) X(flush) X(flush_local) \
  X(flush_all) X(flush_local_all) X(sync) X(request_wait) X(request_test) X(free)
// clang-format on

// The slot of `t` that serves a communication op of RmaOp::kind `kind` (put ..
// compare_and_swap): how a direct slot passes an op it cannot serve to the am slot.
using OpSlot = Status (*WindowOps::*)(Call&, RmaOp&);
OpSlot op_slot(PacketType kind);

// Names of empty slots (none, for a table fit to use).
std::vector<std::string> empty_slots(const WindowOps& t);
// Names of the slots where `t` differs from `base`: what a backend overrides.
std::vector<std::string> overridden_slots(const WindowOps& t, const WindowOps& base);

// `base` with the generic layer's fence, PSCW, flush and lock slots over `d`
// (core/direct_sync.cpp):
// what a backend's direct table starts from.
WindowOps with_direct_sync(WindowOps base, const DirectSync& d);
// The primitives such a table lacks (none, for a table fit to use or one without them).
std::vector<std::string> missing_primitives(const WindowOps& t);

// The packet protocol every window runs (am/), as the core sees it: its table, complete on
// every transport, and its per-window state. Handed to the runtime by the registry, so the
// core names no protocol and no backend.
struct Protocol {
  const WindowOps* ops;
  std::unique_ptr<ProtocolWin> (*attach)(Win& w);
};

}  // namespace rma::core
