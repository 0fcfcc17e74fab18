// The am table: each slot hands the call to the window's AmWin (am_win.hpp).
#include "am/am_ops.hpp"

#include "am/am_win.hpp"

namespace rma::am {
namespace {

using core::Call;
using core::RequestState;
using core::RmaOp;

AmWin& am(Call& c) {
  return static_cast<AmWin&>(*c.w.am);
}

Status am_enqueue(Call& c, RmaOp& op) {
  return am(c).enqueue(c, op);
}
Status am_fence(Call& c, unsigned a) {
  return am(c).fence(c, a);
}
Status am_post(Call& c, std::span<const int> g, unsigned a) {
  return am(c).post(c, g, a);
}
Status am_start(Call& c, std::span<const int> g, unsigned a) {
  return am(c).start(c, g, a);
}
Status am_complete(Call& c) {
  return am(c).complete(c);
}
Status am_wait(Call& c) {
  return am(c).wait(c);
}
Result<bool> am_test(Call& c) {
  return am(c).test(c);
}
Status am_lock(Call& c, LockType t, int target, unsigned a) {
  return am(c).lock(c, t, target, a);
}
Status am_lock_all(Call&, unsigned) {
  return Status::ok();
}  // lock requests go with the ops

Status am_unlock(Call& c, int t) {
  return am(c).close(c, Closing::unlock, {&t, 1});
}
Status am_unlock_all(Call& c) {
  return am(c).close(c, Closing::unlock, c.w.all_ranks());
}
Status am_flush(Call& c, int t) {
  return am(c).close(c, Closing::flush, {&t, 1});
}
Status am_flush_local(Call& c, int t) {
  return am(c).close(c, Closing::flush_local, {&t, 1});
}
Status am_flush_all(Call& c) {
  return am(c).close(c, Closing::flush, c.w.all_ranks());
}
Status am_flush_local_all(Call& c) {
  return am(c).close(c, Closing::flush_local, c.w.all_ranks());
}
// Window memory is only ever touched by this rank's own threads on the am path, and the
// engine lock they all take already orders their accesses: nothing to synchronize.
Status am_sync(Call&) {
  return Status::ok();
}
Status am_request_wait(Call& c, RequestState& r) {
  return am(c).request_wait(c, r);
}
Result<bool> am_request_test(Call& c, RequestState& r) {
  return am(c).request_test(c, r);
}
Status am_free(Call& c) {
  return am(c).free(c);
}

constexpr core::WindowOps kAm{
    .name = "am",
    .needs_engine_lock = true,
    .put = am_enqueue,
    .get = am_enqueue,
    .accumulate = am_enqueue,
    .get_accumulate = am_enqueue,
    .fetch_and_op = am_enqueue,
    .compare_and_swap = am_enqueue,
    .fence = am_fence,
    .post = am_post,
    .start = am_start,
    .complete = am_complete,
    .wait = am_wait,
    .test = am_test,
    .lock = am_lock,
    .unlock = am_unlock,
    .lock_all = am_lock_all,
    .unlock_all = am_unlock_all,
    .flush = am_flush,
    .flush_local = am_flush_local,
    .flush_all = am_flush_all,
    .flush_local_all = am_flush_local_all,
    .sync = am_sync,
    .request_wait = am_request_wait,
    .request_test = am_request_test,
    .free = am_free,
};

std::unique_ptr<core::ProtocolWin> attach(core::Win& w) {
  return std::make_unique<AmWin>(w);
}

constexpr core::Protocol kProtocol{&kAm, attach};

}  // namespace

const core::WindowOps& am_ops() {
  return kAm;
}
const core::Protocol& protocol() {
  return kProtocol;
}

}  // namespace rma::am
