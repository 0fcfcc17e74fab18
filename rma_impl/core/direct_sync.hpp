// direct_sync.hpp — fence, post/start/complete/wait/test and the flushes of every backend's
// direct path, written once over the backend's primitives (core::DirectSync in
// window_ops.hpp), as MPICH ch4's generic layer owns the epochs and its transports give
// completion hooks. A backend's direct table starts from with_direct_sync(); its data slots
// ask await_post() before touching a target's memory in a start epoch.
#pragma once

#include "core/window_ops.hpp"
#include "progress/engine.hpp"

namespace rma::core {

// Waits for `pred` as a synchronization call: at once if it holds, else with the engine
// held (waiting makes progress), spinning briefly, then yielding, then blocking.
template <class Pred>
Status wait_sync(Call& c, const char* what, int peer, Pred&& pred) {
  if (pred()) return Status::ok();
  c.hold();
  return c.w.engine.wait_until(c.lk, pred, progress::WaitInfo{progress::Ctx::rma_sync, what, peer});
}

// In a start epoch, an op may touch `target`'s memory only once the target has posted
// (unless the epoch was started with nocheck). Checked per op: the common case, a target
// already seen, stays inline.
Status await_post_slow(Call& c, int target);
inline Status await_post(Call& c, int target) {
  if (c.w.taken.post_seen[static_cast<std::size_t>(target)]) return Status::ok();
  return await_post_slow(c, target);
}

}  // namespace rma::core
