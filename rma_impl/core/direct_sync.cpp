// The generic direct synchronization (direct_sync.hpp). The epoch checks have run before any
// slot here (window.cpp); these slots only carry the epochs out over the backend's
// primitives, so a backend writes fence, PSCW and its lock epochs not at all and a third one
// not a third time.
#include "core/direct_sync.hpp"

#include <algorithm>

#include "core/direct_lock.hpp"
#include "core/runtime_impl.hpp"

namespace rma::core {
namespace {

// A signal read in place is an operation on a shared word; a message was counted when sent.
void count_taken(Call& c) {
  if (prims(c).signals == SignalPath::shared_words)
    c.w.engine.count_direct(c.w.id, DirectOp::sync_word);
}

void size_taken(Win& w) {
  SignalsTaken& k = w.taken;
  if (!k.posts.empty()) return;
  const auto n = static_cast<std::size_t>(w.ranks());
  k.posts.assign(n, 0);
  k.dones.assign(n, 0);
  k.post_seen.assign(n, 0);
}

// --- fence ----------------------------------------------------------------------------------

// This rank's ops complete at their targets, then every rank meets: nobody leaves before
// every op of the closing epoch is in place, and no op of the next one lands early. A fence
// that neither closes nor opens an epoch needs nobody else.
Status fence(Call& c, unsigned asserts) {
  RMA_TRY(complete_ops(c, -1, false));
  if ((asserts & assert_noprecede) && (asserts & assert_nosucceed)) return Status::ok();
  return prims(c).barrier(c);
}

// --- post/start/complete/wait -----------------------------------------------------------------

// With nocheck the origins' start will not wait for this post, so none is sent.
Status post(Call& c, std::span<const int> group, unsigned asserts) {
  size_taken(c.w);
  if (asserts & assert_nocheck) return Status::ok();
  for (int o : group) prims(c).notify(c, Signal::post, o);
  return Status::ok();
}

// Start waits for nobody: each target's post is awaited by the first op to it (or complete).
Status start(Call& c, std::span<const int>, unsigned) {
  size_taken(c.w);
  std::fill(c.w.taken.post_seen.begin(), c.w.taken.post_seen.end(), 0);
  return Status::ok();
}

Status complete(Call& c) {
  for (int t : c.w.epochs.start_group()) {
    RMA_TRY(await_post(c, t));  // a target with no op still needs its post first
    RMA_TRY(complete_ops(c, t, false));
    prims(c).notify(c, Signal::done, t);
  }
  return Status::ok();
}

bool all_done(Call& c) {
  const DirectSync& p = prims(c);
  for (int o : c.w.epochs.post_group())
    if (p.received(c.w, Signal::done, o) <= c.w.taken.dones[static_cast<std::size_t>(o)])
      return false;
  return true;
}

void take_dones(Call& c) {
  for (int o : c.w.epochs.post_group()) ++c.w.taken.dones[static_cast<std::size_t>(o)];
  count_taken(c);
}

Status wait(Call& c) {
  RMA_TRY(wait_sync(c, "wait: done from each origin", -2, [&] { return all_done(c); }));
  take_dones(c);
  return Status::ok();
}

// Messages arrive only by progress: one pass of it, so that polling test() gets there.
Result<bool> test(Call& c) {
  if (prims(c).signals == SignalPath::messages) {
    c.hold();
    c.w.engine.progress(progress::Ctx::rma_sync);
  }
  if (!all_done(c)) return false;
  take_dones(c);
  return true;
}

// --- flush -----------------------------------------------------------------------------------

Status flush(Call& c, int t) {
  return complete_ops(c, t, false);
}
Status flush_local(Call& c, int t) {
  return complete_ops(c, t, true);
}
Status flush_all(Call& c) {
  return complete_ops(c, -1, false);
}
Status flush_local_all(Call& c) {
  return complete_ops(c, -1, true);
}

// --- passive target ----------------------------------------------------------------------------

// The epoch tracker records lock_all and its nocheck once this slot returns (window.cpp).
Status lock_all(Call& c, unsigned asserts) {
  if (asserts & assert_nocheck) return Status::ok();
  // Its locks are taken at the first op to each target (lock_all_access).
  Result<bool> r = tell_epoch(c, LockEpoch::open, -1, LockType::shared);
  return r ? Status::ok() : r.status();
}

Status unlock_all(Call& c) {
  RMA_TRY(complete_ops(c, -1, false));
  RMA_TRY(close_fallback(c, -1));
  for (int t = 0; t < c.w.ranks(); ++t) release_held<TableLocks>(c, t);
  if (!c.w.epochs.lock_all_nocheck()) (void)tell_epoch(c, LockEpoch::close, -1, LockType::shared);
  return Status::ok();
}

}  // namespace

Status close_am_epoch(Call& c, int t) {
  const WindowOps& am = *c.w.rt.protocol().ops;
  return t < 0 ? am.unlock_all(c) : am.unlock(c, t);
}

Status lock_all_access(Call& c, int t) {
  const bool nocheck = c.w.epochs.lock_all_nocheck();
  if (!nocheck) RMA_TRY(prims(c).acquire(c, t, LockType::shared));
  c.w.locks.set(t, nocheck ? LockHeld::nocheck : LockHeld::shared);
  return Status::ok();
}

Status await_post_slow(Call& c, int t) {
  const auto ti = static_cast<std::size_t>(t);
  SignalsTaken& k = c.w.taken;
  if (!c.w.epochs.start_nocheck()) {
    const DirectSync& p = prims(c);
    RMA_TRY(wait_sync(c, "post from the target", t,
                      [&] { return p.received(c.w, Signal::post, t) > k.posts[ti]; }));
    ++k.posts[ti];
    count_taken(c);
  }
  k.post_seen[ti] = 1;
  return Status::ok();
}

WindowOps with_direct_sync(WindowOps t, const DirectSync& d) {
  t.direct_sync = d;
  t.fence = fence;
  t.post = post;
  t.start = start;
  t.complete = complete;
  t.wait = wait;
  t.test = test;
  t.flush = flush;
  t.flush_local = flush_local;
  t.flush_all = flush_all;
  t.flush_local_all = flush_local_all;
  t.lock = lock_slot<TableLocks>;
  t.unlock = unlock_slot<TableLocks>;
  t.lock_all = lock_all;
  t.unlock_all = unlock_all;
  return t;
}

std::vector<std::string> missing_primitives(const WindowOps& t) {
  std::vector<std::string> out;
  if (t.fence != fence) return out;  // not the generic synchronization: needs none
  if (!t.direct_sync.notify) out.emplace_back("notify");
  if (!t.direct_sync.received) out.emplace_back("received");
  if (!t.direct_sync.barrier) out.emplace_back("barrier");
  if (!t.direct_sync.acquire) out.emplace_back("acquire");
  if (!t.direct_sync.release) out.emplace_back("release");
  return out;
}

}  // namespace rma::core
