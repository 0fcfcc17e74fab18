// The fabric direct path's per-window state (see fabric_win.hpp): the pool of native ops in
// flight and their completions, and what a state dump shows of locks and ops.
#include <rdma/fi_errno.h>

#include <chrono>

#include "core/runtime_impl.hpp"
#include "fabric/fabric_win.hpp"

namespace rma::fabric {
namespace {

// Native ops one window keeps in flight before an op call waits for completions. ofi_rxd
// (libfabric 1.17) stalls for good with a few hundred large atomics in flight to the same
// process (conformance: accumulate_concurrent, 4 ranks, 1 MiB accumulates to rank 0, seen
// stuck 2 runs in 3 at 256 and never in 4 at 32), so it gets a smaller window.
std::uint32_t max_in_flight(FabricTransport& t) {
  return t.endpoint().provider().find("ofi_rxd") != std::string::npos ? 32 : 256;
}

// Errors that mean the peer cannot be reached, as opposed to a refused operation.
bool unreachable(int err) {
  switch (err) {
    case FI_EIO:
    case FI_ECONNRESET:
    case FI_ECONNREFUSED:
    case FI_ECONNABORTED:
    case FI_ENOTCONN:
    case FI_EHOSTUNREACH:
    case FI_ETIMEDOUT:
    case FI_ESHUTDOWN:
      return true;
    default:
      return false;
  }
}

}  // namespace

// --- FabricWin --------------------------------------------------------------------------------

FabricWin::FabricWin(core::Win& win, FabricTransport& t, const AtomicTable& a)
    : w(win), transport(t), atomics(a), max_in_flight(fabric::max_in_flight(t)) {
  const auto n = static_cast<std::size_t>(win.ranks());
  peers.resize(n);
  in_flight.assign(n, 0);
  acc_in_flight.assign(n, 0);
  grants.assign(n, Grant::none);
  requested.assign(n, LockType::exclusive);
  posts_received.assign(n, 0);
  dones_received.assign(n, 0);
  released.assign(n, 0);
}

FabricWin::~FabricWin() {
  if (registry) registry->erase(w.id);
  if (epochs && epochs->deferred_win == this) {
    epochs->deferred_win = nullptr;
    epochs->deferred_target = -1;
  }
  // Completions still due would name ops of this window: wait a moment for them, and if
  // the provider never reports them, keep the ops alive rather than let it write into
  // freed memory.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (total_in_flight > 0 && std::chrono::steady_clock::now() < deadline)
    w.engine.progress(progress::Ctx::rma_sync);
  if (total_in_flight > 0)
    for (auto& op : pool_) (void)op.release();
}

NativeOp* FabricWin::take_op() {
  if (free_.empty()) {
    pool_.push_back(std::make_unique<NativeOp>());
    NativeOp* n = pool_.back().get();
    n->win = this;
    n->done = &FabricWin::op_done;
    free_.push_back(n);
  }
  NativeOp* n = free_.back();
  free_.pop_back();
  return n;
}

void FabricWin::give_back(NativeOp* op) {
  op->request.reset();
  op->derived.reset();
  free_.push_back(op);
}

void FabricWin::op_done(Completion& c, std::size_t, int err) {
  auto& n = static_cast<NativeOp&>(c);
  FabricWin& f = *n.win;
  const auto t = static_cast<std::size_t>(n.peer);
  --f.in_flight[t];
  --f.total_in_flight;
  if (n.accumulate) --f.acc_in_flight[t];
  Status s;
  if (err) {
    const std::string why = f.transport.last_error();
    s = Status{unreachable(err) ? ErrorClass::proc_failed : ErrorClass::other,
               "window " + std::to_string(f.w.id) + ": a native operation on rank " +
                   std::to_string(n.peer) + " failed: " + why};
    if (unreachable(err)) f.transport.report_failure(n.peer, why);
    if (f.failure) f.failure = s;
  }
  if (n.request) {
    if (err) n.request->status = s;
    n.request->done = true;
  }
  f.give_back(&n);
}

void FabricWin::describe(WindowState& s) const {
  for (std::size_t t = 0; t < grants.size(); ++t) {
    // The request's progress first; once granted (or with nocheck), the epoch's lock.
    const core::LockHeld h = w.locks.at(static_cast<int>(t));
    const bool asking = grants[t] == Grant::deferred || grants[t] == Grant::requested;
    if (!asking && h == core::LockHeld::none && in_flight[t] == 0) continue;
    TargetState ts;
    ts.target = static_cast<int>(t);
    ts.lock = grants[t] == Grant::deferred     ? "deferred (requested at unlock or when needed)"
              : grants[t] == Grant::requested  ? "requested (control message)"
              : h == core::LockHeld::shared    ? "held shared"
              : h == core::LockHeld::exclusive ? "held exclusive"
              : h == core::LockHeld::nocheck   ? "nocheck"
                                               : "none";
    ts.in_flight = in_flight[t];
    s.targets.push_back(ts);
  }
  s.lock_holders = locks.holders_text();
  s.lock_waiters = locks.waiters_text();
}

}  // namespace rma::fabric
