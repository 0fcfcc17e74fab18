// The fabric direct path's synchronization primitives (see fabric_win.hpp), under the
// generic layer's fence, PSCW, flush and lock epochs (core/direct_sync.hpp): control
// messages, remote completion of the native ops a call closes, locks at the target's lock
// manager, and the deferred lock epoch.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "am/am_ops.hpp"
#include "core/direct_sync.hpp"
#include "core/runtime_impl.hpp"
#include "core/window_ops.hpp"
#include "fabric/fabric_win.hpp"

namespace rma::fabric {

using core::Call;

Status wait_for(Call& c, const char* what, int peer, const std::function<bool()>& pred) {
  return core::wait_sync(c, what, peer, pred);
}

Status wait_native(Call& c, int t) {
  FabricWin& f = fabric_win(c);
  RMA_TRY(wait_for(c, "remote completion of native operations", t < 0 ? -2 : t, [&] {
    return t < 0 ? f.total_in_flight == 0 : f.in_flight[static_cast<std::size_t>(t)] == 0;
  }));
  Status s = std::move(f.failure);
  f.failure = Status::ok();
  return s;
}

// --- control messages -------------------------------------------------------------------------

void FabricWin::send(int dst, Control::Type type, std::uint32_t epoch, std::uint32_t round) {
  Control m;
  m.win = w.id;
  m.type = type;
  m.epoch = epoch;
  m.round = round;
  transport.send_control(dst, std::as_bytes(std::span(&m, 1)));
  w.engine.count_direct(w.id, DirectOp::sync_word);
}

void FabricWin::send_op_lock(int t, bool release) {
  const auto ti = static_cast<std::size_t>(t);
  Control m;
  m.win = w.id;
  m.type = Control::op_lock;
  OpLock p;
  p.disp = kept.disp;
  p.bytes = static_cast<std::uint32_t>(kept.bytes);
  p.exclusive = requested[ti] == LockType::exclusive ? 1 : 0;
  p.release = release ? 1 : 0;
  p.get = kept.get ? 1 : 0;
  std::vector<std::byte> msg(sizeof m + sizeof p + kept.data.size());
  std::memcpy(msg.data(), &m, sizeof m);
  std::memcpy(msg.data() + sizeof m, &p, sizeof p);
  if (!kept.data.empty())
    std::memcpy(msg.data() + sizeof m + sizeof p, kept.data.data(), kept.data.size());
  transport.send_control(t, msg);
  w.engine.count_direct(w.id, DirectOp::sync_word);
  if (kept.get) {
    get_result = kept.result;
    get_bytes = kept.bytes;
    get_target = t;
  }
  kept.present = false;
  kept.data.clear();
}

void FabricWin::apply_op_lock(int origin, std::span<const std::byte> body) {
  OpLock p;
  std::memcpy(&p, body.data(), sizeof p);
  // The origin checked the range against this window; a message that disagrees touches
  // nothing, but is still answered, so that nobody waits for ever.
  const bool in_range = w.base && p.disp <= w.size && p.bytes <= w.size - p.disp && p.bytes > 0;
  std::span<const std::byte> answer;
  if (in_range && p.get)
    answer = {w.base + p.disp, p.bytes};
  else if (in_range)
    std::memcpy(w.base + p.disp, body.data() + sizeof p, p.bytes);
  Control m;
  m.win = w.id;
  m.type = p.release ? Control::released : Control::grant;
  std::vector<std::byte> msg(sizeof m + answer.size());
  std::memcpy(msg.data(), &m, sizeof m);
  if (!answer.empty()) std::memcpy(msg.data() + sizeof m, answer.data(), answer.size());
  transport.send_control(origin, msg);
  w.engine.count_direct(w.id, DirectOp::sync_word);
  if (p.release)
    for (const core::LockRequest& g : locks.release(origin)) grant(g);
}

void FabricWin::take_get_answer(int src, std::span<const std::byte> data) {
  if (!get_result || src != get_target) return;
  std::memcpy(get_result, data.data(), std::min(data.size(), get_bytes));
  get_result = nullptr;
  get_bytes = 0;
  get_target = -1;
}

void FabricWin::grant(const core::LockRequest& r) {
  const auto o = static_cast<std::size_t>(r.origin);
  if (r.origin == w.rank())
    grants[o] = Grant::granted;
  else if (!r.held.empty())
    apply_op_lock(r.origin, r.held.front().payload);
  else
    send(r.origin, Control::grant);
}

void FabricWin::on_control(int src, std::span<const std::byte> msg) {
  const auto s = static_cast<std::size_t>(src);
  Control m;
  std::memcpy(&m, msg.data(), sizeof m);
  switch (m.type) {
    case Control::op_lock: {
      const auto body = msg.subspan(sizeof m);
      OpLock p;
      if (body.size() < sizeof p) return;
      std::memcpy(&p, body.data(), sizeof p);
      if (body.size() < sizeof p + (p.get ? 0 : p.bytes)) return;
      const LockType type = p.exclusive ? LockType::exclusive : LockType::shared;
      if (locks.try_grant(src, type)) {
        apply_op_lock(src, body);
        return;
      }
      // Waits in the FIFO with its data; grant() applies it.
      core::LockRequest r{src, type, {}};
      r.held.push_back(core::HeldPacket{{}, {body.begin(), body.end()}});
      (void)locks.request(std::move(r));
      return;
    }
    case Control::released:
      take_get_answer(src, msg.subspan(sizeof m));
      released[s] = 1;
      return;
    case Control::lock_shared:
    case Control::lock_exclusive: {
      const LockType type = m.type == Control::lock_shared ? LockType::shared : LockType::exclusive;
      if (locks.request(core::LockRequest{src, type, {}})) grant({src, type, {}});
      return;
    }
    case Control::grant:
      take_get_answer(src, msg.subspan(sizeof m));
      grants[s] = Grant::granted;
      return;
    case Control::unlock:
      for (const core::LockRequest& g : locks.release(src)) grant(g);
      return;
    case Control::post:
      ++posts_received[s];
      return;
    case Control::done:
      ++dones_received[s];
      return;
    case Control::barrier:
      ++barrier_in[{m.epoch, m.round}];
      return;
  }
}

namespace {

// --- passive target -------------------------------------------------------------------------

// Largest put or get that travels with the lock request. Copying it twice costs far less than the
// round trip it saves; the bound keeps the message well below rxm's eager size (16 KiB by
// default: above it rxm adds a rendezvous round trip of its own) and the transport's
// largest packet (16 KiB at 1024 ranks).
constexpr std::size_t kKeptMax = 4096;

// Requests `t`'s lock in window `f` and waits for the grant. A deferred epoch's kept op
// travels with the request. (`f` may be another window than the call's: see
// resolve_deferred.)
Status acquire(Call& c, FabricWin& f, int t, LockType type) {
  const auto ti = static_cast<std::size_t>(t);
  const bool with_op = f.grants[ti] == FabricWin::Grant::deferred && f.kept.present;
  f.grants[ti] = FabricWin::Grant::requested;
  f.requested[ti] = type;
  if (t == f.w.rank()) {
    if (f.locks.request(core::LockRequest{t, type, {}})) f.grant({t, type, {}});
  } else if (with_op) {
    f.send_op_lock(t, false);
  } else {
    f.send(t, type == LockType::exclusive ? Control::lock_exclusive : Control::lock_shared);
  }
  return wait_for(c, "lock grant from the target", t,
                  [&] { return f.grants[ti] != FabricWin::Grant::requested; });
}

Status acquire(Call& c, int t, LockType type) {
  return acquire(c, fabric_win(c), t, type);
}

// Turns the rank's deferred epoch, if any, into an acquired one.
Status resolve_deferred(Call& c) {
  LockEpochs* e = fabric_win(c).epochs;
  if (!e || !e->deferred_win) return Status::ok();
  FabricWin& d = *e->deferred_win;
  const int t = e->deferred_target;
  e->deferred_win = nullptr;
  e->deferred_target = -1;
  return acquire(c, d, t, d.requested[static_cast<std::size_t>(t)]);
}

// The same, when the deferred epoch is this window's on `t` (t < 0: any target).
Status resolve_deferred_here(Call& c, int t) {
  FabricWin& f = fabric_win(c);
  if (!f.epochs || f.epochs->deferred_win != &f || (t >= 0 && f.epochs->deferred_target != t))
    return Status::ok();
  return resolve_deferred(c);
}

// A lock whose request failed on the way (resolve_deferred for another window's lock) was
// never granted: nothing to give back.
void release(Call& c, int t, LockType) {
  FabricWin& f = fabric_win(c);
  auto& g = f.grants[static_cast<std::size_t>(t)];
  if (g == FabricWin::Grant::granted) {
    if (t == c.w.rank()) {
      for (const core::LockRequest& r : f.locks.release(t)) f.grant(r);
    } else {
      f.send(t, Control::unlock);
    }
  }
  g = FabricWin::Grant::none;
}

// The deferred epoch: a lock on another rank opened while this rank holds no other lock (on
// any direct window) sends nothing yet. Its lock is acquired only when something needs it (a
// second op, a flush, another lock), or at unlock, where a single small put or get kept
// meanwhile travels with the request and the release in one control message (one round
// trip instead of two). Holding no other lock, the rank cannot be part of a cycle of lock
// waits while its deferred lock is not acquired; and a rank that opens another lock
// acquires the deferred one first, so the order of lock() calls is kept.
//
// At `open` of a lock (or lock_all: t < 0): true when this lock is deferred.
Result<bool> open_lock_epoch(Call& c, int t, LockType type) {
  FabricWin& f = fabric_win(c);
  RMA_TRY(resolve_deferred(c));
  if (t < 0) {  // lock_all: its locks are taken at the first op to each target
    if (f.epochs) ++f.epochs->open;
    return false;
  }
  const auto ti = static_cast<std::size_t>(t);
  f.grants[ti] = FabricWin::Grant::none;
  if (!f.epochs || f.epochs->open++ != 0 || t == c.w.rank()) return false;
  f.grants[ti] = FabricWin::Grant::deferred;
  f.requested[ti] = type;
  f.epochs->deferred_win = &f;
  f.epochs->deferred_target = t;
  return true;
}

void close_lock_epoch(FabricWin& f) {
  if (f.epochs && f.epochs->open > 0) --f.epochs->open;
}

// A deferred epoch: its kept op, the lock request and the release in one message, and the
// target's `released` answer (with a get's data); nothing at all without an op.
Status unlock_deferred(Call& c, int t) {
  FabricWin& f = fabric_win(c);
  const auto ti = static_cast<std::size_t>(t);
  f.epochs->deferred_win = nullptr;
  f.epochs->deferred_target = -1;
  close_lock_epoch(f);
  f.grants[ti] = FabricWin::Grant::none;
  if (!f.kept.present) return Status::ok();
  f.released[ti] = 0;
  f.send_op_lock(t, true);
  RMA_TRY(wait_for(c, "op done and lock released by the target", t,
                   [&] { return f.released[ti] != 0; }));
  f.released[ti] = 0;
  return Status::ok();
}

// The generic lock epochs' hook (core::DirectSync::lock_epoch). A deferred epoch is
// finished whole at unlock; an acquired one is unlocked by the generic layer (its native ops
// complete, the am table's unlock, then ours), and then closed.
Result<bool> lock_epoch(Call& c, core::LockEpoch ev, int t, LockType type) {
  FabricWin& f = fabric_win(c);
  switch (ev) {
    case core::LockEpoch::open:
      return open_lock_epoch(c, t, type);
    case core::LockEpoch::finish:
      if (f.grants[static_cast<std::size_t>(t)] != FabricWin::Grant::deferred) return false;
      RMA_TRY(unlock_deferred(c, t));
      return true;
    case core::LockEpoch::close:
      close_lock_epoch(f);
      return false;
  }
  return false;
}

// Ops that fell back are complete when their call returns; native ones when their
// delivery-complete completion arrives, so local completion is no weaker here. A deferred
// epoch's kept op is complete once its lock request is granted, except that a kept put is a
// copy, whose origin buffer is free already: it stays deferred under a local flush, while a
// kept get is only complete with its answer. (Fence and complete never find a deferred epoch
// on their window: it needs a lock epoch there.)
Status complete_ops(Call& c, int t, bool local) {
  FabricWin& f = fabric_win(c);
  if (!local || (f.kept.present && f.kept.get)) RMA_TRY(resolve_deferred_here(c, t));
  return wait_native(c, t);
}

// MPI_Win_sync orders this process's loads and stores of its window memory with the
// provider's: a sequentially consistent read-modify-write is a full barrier (and, unlike a
// bare fence, ThreadSanitizer understands it).
Status direct_sync(Call&) {
  static std::atomic<unsigned> word{0};
  word.fetch_add(1, std::memory_order_seq_cst);
  return Status::ok();
}

Status direct_request_wait(Call& c, core::RequestState& r) {
  RMA_TRY(
      wait_for(c, "request: native operation complete", r.target, [&] { return r.done.load(); }));
  return r.status;
}

// A native op's request completes when its completion is read off the provider's queue,
// which progress does, so one step is one pass of progress. (An op that fell back to the am
// slots was complete when its call returned, so the am protocol has nothing of it queued:
// this is not the am slot, whose step is about the am protocol's own queue.)
Result<bool> direct_request_test(Call& c, core::RequestState& r) {
  if (!r.done) c.w.engine.progress(progress::Ctx::rma_sync);
  if (r.done && !r.status) return r.status;
  return r.done.load();
}

// --- the generic layer's primitives (core/direct_sync.hpp)
// ----------------------------------------

// Dissemination barrier: in round k each rank tells rank + 2^k and waits for rank - 2^k.
Status barrier(Call& c) {
  FabricWin& f = fabric_win(c);
  const int n = c.w.ranks();
  const int me = c.w.rank();
  const std::uint32_t epoch = f.barrier_epoch++;
  std::uint32_t round = 0;
  for (int k = 1; k < n; k *= 2, ++round) {
    f.send((me + k) % n, Control::barrier, epoch, round);
    RMA_TRY(wait_for(c, "fence: barrier of control messages", (me - k + n) % n, [&] {
      return f.barrier_in[{epoch, round}] > 0;
    }));
    f.barrier_in.erase({epoch, round});
  }
  return Status::ok();
}

// Posts and dones are control messages; to this rank, a count bumped in place.
void notify(Call& c, core::Signal kind, int peer) {
  FabricWin& f = fabric_win(c);
  const bool post = kind == core::Signal::post;
  if (peer == c.w.rank())
    ++(post ? f.posts_received : f.dones_received)[static_cast<std::size_t>(peer)];
  else
    f.send(peer, post ? Control::post : Control::done);
}

std::uint32_t received(core::Win& w, core::Signal kind, int peer) {
  const auto& f = static_cast<const FabricWin&>(*w.backend);
  return (kind == core::Signal::post ? f.posts_received
                                     : f.dones_received)[static_cast<std::size_t>(peer)];
}

Status direct_free(Call& c) {
  RMA_TRY(wait_native(c, -1));
  // Every rank has finished its epochs on this window before any deregisters its memory.
  return am::am_ops().free(c);
}

}  // namespace

// --- access: an op may touch the target's memory only once its exposure has begun ---------------

// A deferred epoch's lock is acquired by the first op that is not kept with it
// (keep_in_deferred_epoch asks first); the rest is the generic layer's.
Status ensure_access(Call& c, int t) {
  if (fabric_win(c).grants[static_cast<std::size_t>(t)] == FabricWin::Grant::deferred)
    return resolve_deferred_here(c, t);
  return core::await_access(c, t);
}

bool keep_in_deferred_epoch(Call& c, const core::RmaOp& op) {
  FabricWin& f = fabric_win(c);
  const auto ti = static_cast<std::size_t>(op.target);
  const bool get = op.kind == PacketType::get;
  if ((op.kind != PacketType::put && !get) || op.request ||
      c.w.epochs.access() != core::Access::lock || f.grants[ti] != FabricWin::Grant::deferred ||
      f.kept.present || op.bytes() > kKeptMax)
    return false;
  f.kept.present = true;
  f.kept.get = get;
  f.kept.disp = op.disp;
  f.kept.bytes = op.bytes();
  f.kept.result = get ? static_cast<std::byte*>(op.result) : nullptr;
  const auto* from = static_cast<const std::byte*>(op.origin);
  if (get)
    f.kept.data.clear();
  else
    f.kept.data.assign(from, from + op.bytes());
  c.w.engine.count_direct(c.w.id, get ? DirectOp::get : DirectOp::put);
  return true;
}

core::WindowOps direct_sync_table(const core::WindowOps& base) {
  core::DirectSync sync;
  sync.signals = core::SignalPath::messages;
  sync.notify = notify;
  sync.received = received;
  sync.barrier = barrier;
  sync.complete_ops = complete_ops;
  sync.acquire = acquire;
  sync.release = release;
  sync.lock_epoch = lock_epoch;
  sync.falls_back = true;
  core::WindowOps t = core::with_direct_sync(base, sync);
  t.sync = direct_sync;
  t.request_wait = direct_request_wait;
  t.request_test = direct_request_test;
  t.free = direct_free;
  return t;
}

}  // namespace rma::fabric
