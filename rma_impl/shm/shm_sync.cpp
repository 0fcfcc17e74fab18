// The shm direct path's synchronization primitives (see shm_win.hpp), under the generic
// layer's fence, PSCW, flush and lock epochs (core/direct_sync.hpp): a barrier of the
// window's ranks, post and done counters, and a ticket lock on shared words per rank.
#include <atomic>

#include "core/direct_lock.hpp"
#include "core/direct_sync.hpp"
#include "core/runtime_impl.hpp"
#include "core/window_ops.hpp"
#include "shm/shm_win.hpp"

namespace rma::shm {
namespace {

using core::Call;

template <class Pred>
Status wait_for(Call& c, const char* what, int peer, Pred&& pred) {
  return core::wait_sync(c, what, peer, pred);
}

void wake(Call& c, int rank) {
  if (rank != c.w.rank()) c.w.engine.transport().wake(rank);
}

void wake_all(Call& c) {
  for (int r = 0; r < c.w.ranks(); ++r) wake(c, r);
}

// --- passive-target locks on shared words -------------------------------------------------------

// Rings the ranks blocked on t's lock. Out of line: nearly always nobody waits, which the
// waiter count tells in one load (wake_lock_waiters).
[[gnu::noinline]] void ring_lock_waiters(Call& c, int t) {
  ShmWin& s = shm_win(c);
  for (int r = 0; r < c.w.ranks(); ++r)
    if (s.lock_waiting(t, r).load(std::memory_order_seq_cst)) wake(c, r);
}

void wake_lock_waiters(Call& c, PassiveLock& l, int t) {
  if (l.waiting.load(std::memory_order_seq_cst) != 0) [[unlikely]]
    ring_lock_waiters(c, t);
}

// The lock was not free at once: announce the wait, then wait for the ticket's turn.
[[gnu::noinline]] Status wait_for_turn(Call& c, int t, PassiveLock& l, std::uint64_t ticket,
                                       bool exclusive) {
  ShmWin& s = shm_win(c);
  const int me = c.w.rank();
  // Announce the wait before re-checking, so a holder leaving now either sees it or is seen.
  l.waiting.fetch_add(1, std::memory_order_seq_cst);
  s.lock_waiting(t, me).store(1, std::memory_order_seq_cst);
  // try_enter changes the lock when it succeeds, and a wait may evaluate its condition
  // more than once: remember the success.
  bool entered = false;
  Status st = wait_for(c, "passive lock on shared words", t,
                       [&] { return entered || (entered = l.try_enter(ticket, exclusive)); });
  s.lock_waiting(t, me).store(0, std::memory_order_seq_cst);
  l.waiting.fetch_sub(1, std::memory_order_seq_cst);
  return st;
}

// Inlined by force into the lock and unlock slots (WordLocks below).
[[gnu::always_inline]] inline Status acquire(Call& c, int t, LockType type) {
  const bool exclusive = type == LockType::exclusive;
  PassiveLock& l = shm_win(c).lock(t);
  const std::uint64_t ticket = l.take_ticket();
  if (!l.try_enter(ticket, exclusive)) [[unlikely]]
    RMA_TRY(wait_for_turn(c, t, l, ticket, exclusive));
  count(c, DirectOp::sync_word);
  wake_lock_waiters(c, l, t);  // the head moved on: a shared request behind may enter too
  return Status::ok();
}

[[gnu::always_inline]] inline void release(Call& c, int t, LockType type) {
  PassiveLock& l = shm_win(c).lock(t);
  l.leave(type == LockType::exclusive);
  count(c, DirectOp::sync_word);
  wake_lock_waiters(c, l, t);
}

// The generic lock and unlock slots with these two inlined (core/direct_lock.hpp).
struct WordLocks {
  static Status acquire(Call& c, int t, LockType type) { return shm::acquire(c, t, type); }
  static void release(Call& c, int t, LockType type) { shm::release(c, t, type); }
};

// --- the generic layer's primitives (core/direct_sync.hpp) ------------------------------------

Status barrier(Call& c) {
  SharedBarrier& b = shm_win(c).barrier();
  const std::uint32_t gen = b.generation.load(std::memory_order_seq_cst);
  count(c, DirectOp::sync_word);
  if (b.arrived.fetch_add(1, std::memory_order_seq_cst) + 1 ==
      static_cast<std::uint32_t>(c.w.ranks())) {
    b.arrived.store(0, std::memory_order_seq_cst);
    b.generation.fetch_add(1, std::memory_order_seq_cst);
    wake_all(c);
    return Status::ok();
  }
  return wait_for(c, "fence: every rank at the barrier", -2,
                  [&] { return b.generation.load(std::memory_order_seq_cst) != gen; });
}

// A post or done is a counter the peer reads in place; the release publishes every store
// this rank made to the peer's memory before it.
void notify(Call& c, core::Signal kind, int peer) {
  ShmWin& s = shm_win(c);
  const int me = c.w.rank();
  auto& word = kind == core::Signal::post ? s.posts(peer, me) : s.dones(peer, me);
  word.fetch_add(1, std::memory_order_release);
  count(c, DirectOp::sync_word);
  wake(c, peer);
}

std::uint32_t received(core::Win& w, core::Signal kind, int peer) {
  auto& s = static_cast<ShmWin&>(*w.backend);
  const int me = w.rank();
  return (kind == core::Signal::post ? s.posts(me, peer) : s.dones(me, peer))
      .load(std::memory_order_acquire);
}

// win.sync: a full barrier between this rank's accesses to window memory and everyone
// else's (MPI_Win_sync), as one sequentially consistent read-modify-write.
Status memory_barrier(Call& c) {
  shm_win(c).sync_word().fetch_add(1, std::memory_order_seq_cst);
  return Status::ok();
}

// No complete_ops primitive: an op is complete when its call returns (its copy is in the
// target's memory, and every synchronization a peer could rely on to read it — a lock
// release, a barrier, a done, a message — is a release operation that publishes it), so the
// generic flushes have nothing to wait for and a fence is only a barrier.
Status direct_request_wait(Call&, core::RequestState& r) {
  return r.status;
}
Result<bool> direct_request_test(Call&, core::RequestState& r) {
  if (!r.status) return r.status;
  return true;  // direct ops complete in their call
}

Status direct_free(Call& c) {
  return barrier(c);
}

}  // namespace

core::WindowOps direct_sync_table(const core::WindowOps& base) {
  core::DirectSync sync;
  sync.signals = core::SignalPath::shared_words;
  sync.notify = notify;
  sync.received = received;
  sync.barrier = barrier;
  sync.acquire = acquire;
  sync.release = release;
  core::WindowOps t = core::with_direct_sync(base, sync);
  core::inline_locks<WordLocks>(t);
  t.sync = memory_barrier;
  t.request_wait = direct_request_wait;
  t.request_test = direct_request_test;
  t.free = direct_free;
  return t;
}

}  // namespace rma::shm
