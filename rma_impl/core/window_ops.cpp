// The am table, the checks that keep every table complete, and what Win needs beyond data.
#include "core/window_ops.hpp"

#include "core/am_win.hpp"
#include "core/runtime_impl.hpp"

namespace rma::core {
namespace {

Status am_enqueue(Call& c, RmaOp& op) { return c.w.am->enqueue(c, op); }
Status am_fence(Call& c, unsigned a) { return c.w.am->fence(c, a); }
Status am_post(Call& c, std::span<const int> g, unsigned a) { return c.w.am->post(c, g, a); }
Status am_start(Call& c, std::span<const int> g, unsigned a) { return c.w.am->start(c, g, a); }
Status am_complete(Call& c) { return c.w.am->complete(c); }
Status am_wait(Call& c) { return c.w.am->wait(c); }
Result<bool> am_test(Call& c) { return c.w.am->test(c); }
Status am_lock(Call& c, LockType t, int target, unsigned a) { return c.w.am->lock(c, t, target, a); }
Status am_lock_all(Call&, unsigned) { return Status::ok(); }  // lock requests go with the ops

std::span<const int> everyone(const Win& w) { return w.all_ranks(); }

Status am_unlock(Call& c, int t) { return c.w.am->close(c, Closing::unlock, {&t, 1}); }
Status am_unlock_all(Call& c) { return c.w.am->close(c, Closing::unlock, everyone(c.w)); }
Status am_flush(Call& c, int t) { return c.w.am->close(c, Closing::flush, {&t, 1}); }
Status am_flush_local(Call& c, int t) { return c.w.am->close(c, Closing::flush_local, {&t, 1}); }
Status am_flush_all(Call& c) { return c.w.am->close(c, Closing::flush, everyone(c.w)); }
Status am_flush_local_all(Call& c) {
  return c.w.am->close(c, Closing::flush_local, everyone(c.w));
}
// Window memory is only ever touched by this rank's own threads on the am path, and the
// engine lock they all take already orders their accesses: nothing to synchronize.
Status am_sync(Call&) { return Status::ok(); }
Status am_request_wait(Call& c, RequestState& r) { return c.w.am->request_wait(c, r); }
Result<bool> am_request_test(Call& c, RequestState& r) { return c.w.am->request_test(c, r); }
Status am_free(Call& c) { return c.w.am->free(c); }

constexpr WindowOps kAm{
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

}  // namespace

const WindowOps& am_ops() { return kAm; }

std::vector<std::string> empty_slots(const WindowOps& t) {
  std::vector<std::string> out;
#define RMA_CHECK_SLOT(s) \
  if (!t.s) out.emplace_back(#s);
  RMA_WINDOW_SLOTS(RMA_CHECK_SLOT)
#undef RMA_CHECK_SLOT
  return out;
}

std::vector<std::string> overridden_slots(const WindowOps& t, const WindowOps& base) {
  std::vector<std::string> out;
#define RMA_DIFF_SLOT(s) \
  if (t.s != base.s) out.emplace_back(#s);
  RMA_WINDOW_SLOTS(RMA_DIFF_SLOT)
#undef RMA_DIFF_SLOT
  return out;
}

// --- Win ----------------------------------------------------------------------------------------

Win::Win(RuntimeImpl& r, std::uint32_t window_id, Flavor f)
    : rt(r), engine(r.engine()), id(window_id), flavor(f), epochs(static_cast<int>(window_id), r.size()) {}

Win::~Win() = default;

int Win::rank() const { return rt.rank(); }
int Win::ranks() const { return rt.size(); }

std::span<const int> Win::all_ranks() const {
  if (all_ranks_.size() != static_cast<std::size_t>(ranks())) {
    all_ranks_.resize(static_cast<std::size_t>(ranks()));
    for (int i = 0; i < ranks(); ++i) all_ranks_[static_cast<std::size_t>(i)] = i;
  }
  return all_ranks_;
}

WindowState Win::state() const {
  WindowState s;
  s.id = static_cast<int>(id);
  s.flavor = std::string(to_string(flavor));
  s.path = path_detail;
  s.access_epoch = std::string(to_string(epochs.access()));
  s.exposure_epoch = std::string(to_string(epochs.exposure()));
  if (am) am->describe(s);
  if (backend) backend->describe(s);
  return s;
}

std::unique_ptr<rma::Window> Win::wrap(std::unique_ptr<Win> w) {
  return std::unique_ptr<rma::Window>(new rma::Window(std::move(w)));
}

rma::Request Win::make_request(std::shared_ptr<RequestState> s) { return rma::Request(std::move(s)); }

}  // namespace rma::core
