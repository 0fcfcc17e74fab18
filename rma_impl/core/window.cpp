// The generic layer of a window: every public call validates its arguments, the target's
// range and the epoch state, names what was wrong if anything was, and only then hands the
// call to the window's table of operations. A failed call changes no state.
#include <algorithm>
#include <vector>

#include "core/runtime_impl.hpp"
#include "core/window_entry.hpp"
#include "core/window_fast.hpp"
#include "core/window_ops.hpp"
#include "rma/window.hpp"

namespace rma {
namespace {

using core::Call;
using core::Entry;
using core::RmaOp;
using core::where;
using core::Win;

bool accumulate_like(PacketType k) {
  return k == PacketType::accumulate || k == PacketType::get_accumulate ||
         k == PacketType::fetch_and_op;
}

// Arguments, epoch and range of one communication call; converts disp to bytes. Inlined by
// force into communicate(), and that into each call: the checks of the op's kind then fold
// away, and a put pays for none of an accumulate's.
[[gnu::always_inline]] inline Status check_op(Win& w, const char* call, RmaOp& op,
                                              std::uint64_t disp, bool request_based) {
  RMA_TRY(w.rt.check_peer(call, op.target, true));
  if (accumulate_like(op.kind) && !op_valid_for(op.op, op.dtype))
    return {ErrorClass::op, where(w, call, op.target) + ": " + std::string(to_string(op.op)) +
                                " is not defined for " + std::string(to_string(op.dtype))};
  if (op.kind == PacketType::compare_and_swap && (is_float(op.dtype) || is_pair(op.dtype)))
    return {ErrorClass::type, where(w, call, op.target) +
                                  ": compare_and_swap needs an integer type, not " +
                                  std::string(to_string(op.dtype))};
  const bool needs_origin =
      op.kind != PacketType::get &&
      !(accumulate_like(op.kind) && op.op == Op::no_op && op.kind != PacketType::accumulate);
  if (op.count && needs_origin && !op.origin)
    return {ErrorClass::buffer, where(w, call, op.target) + ": null origin buffer"};
  if (op.count && op.has_response() && !op.result)
    return {ErrorClass::buffer, where(w, call, op.target) + ": null result buffer"};
  if (op.kind == PacketType::compare_and_swap && !op.compare)
    return {ErrorClass::buffer, where(w, call, op.target) + ": null compare value"};
  std::uint64_t bytes = 0;  // RmaOp::bytes() from here on: it cannot wrap
  if (__builtin_mul_overflow(op.count, size_of(op.dtype), &bytes)) [[unlikely]]
    return {ErrorClass::count, where(w, call, op.target) + ": " + std::to_string(op.count) +
                                   " elements of " + std::string(to_string(op.dtype)) +
                                   " are more bytes than a 64-bit size holds"};
  RMA_TRY(w.epochs.can_access(call, op.target, request_based));
  if (op.target == proc_null) return Status::ok();
  if (w.flavor == Flavor::dynamic) {
    op.disp = disp;  // an address the target attached; the target checks it
    return Status::ok();
  }
  const core::PeerWin& p = w.peers[static_cast<std::size_t>(op.target)];
  const auto unit = static_cast<std::uint64_t>(p.disp_unit);
  std::uint64_t offset = 0;
  if (!p.holds(disp, bytes, offset))
    return {ErrorClass::rma_range, where(w, call, op.target) + ": displacement " +
                                       std::to_string(disp) + " (x" + std::to_string(unit) +
                                       " bytes) + " + std::to_string(bytes) +
                                       " bytes is past the end of the target's " +
                                       std::to_string(p.size) + "-byte window"};
  op.disp = offset;
  return Status::ok();
}

using Slot = Status (*)(Call&, RmaOp&);

RmaOp make_op(PacketType kind, int target, std::size_t count, Dtype dtype, Op o = Op::replace,
              const void* origin = nullptr, void* result = nullptr, const void* compare = nullptr) {
  RmaOp op;
  op.kind = kind;
  op.target = target;
  op.count = count;
  op.dtype = dtype;
  op.op = o;
  op.origin = origin;
  op.result = result;
  op.compare = compare;
  return op;
}

// `op` is the caller's: the slot may take it over (the am path queues it).
[[gnu::always_inline]] inline Status communicate(Win& w, const char* name,
                                                 Slot core::WindowOps::*slot, RmaOp& op,
                                                 std::uint64_t disp, bool request_based) {
  Entry e(w, name, op.target, false);
  RMA_TRY(e.usable());
  RMA_TRY(check_op(w, name, op, disp, request_based));
  w.epochs.did_access();
  if (op.target == proc_null || op.count == 0) {
    if (op.request) op.request->done = true;
    return Status::ok();
  }
  return (w.ops->*slot)(e.call, op);
}

Result<Request> request_op(Win& w, const char* name, Slot core::WindowOps::*slot, RmaOp op,
                           std::uint64_t disp);

// Every start and post checks its group: small groups (the common case) pairwise, so the
// check allocates nothing; large ones with a mark per rank.
Status check_group(const Win& w, const char* call, std::span<const int> group) {
  constexpr std::size_t kPairwise = 32;
  std::vector<char> seen;
  if (group.size() > kPairwise) seen.assign(static_cast<std::size_t>(w.rt.size()), 0);
  for (std::size_t i = 0; i < group.size(); ++i) {
    const int r = group[i];
    RMA_TRY(w.rt.check_peer(call, r, false));
    const bool twice =
        seen.empty() ? std::find(group.begin(), group.begin() + static_cast<std::ptrdiff_t>(i),
                                 r) != group.begin() + static_cast<std::ptrdiff_t>(i)
                     : seen[static_cast<std::size_t>(r)]++ != 0;
    if (twice)
      return {ErrorClass::arg,
              where(w, call, -1) + ": rank " + std::to_string(r) + " appears twice in the group"};
  }
  return Status::ok();
}

}  // namespace

// --- the public window ------------------------------------------------------------------------

Window::Window(std::unique_ptr<core::Win> w) : w_(std::move(w)) {}
Window::~Window() = default;

int Window::id() const {
  return static_cast<int>(w_->id);
}
Flavor Window::flavor() const {
  return w_->flavor;
}
Path Window::path() const {
  return w_->path;
}
std::string Window::path_detail() const {
  return w_->ops ? w_->ops->name : "none";
}
void* Window::base() const {
  return w_->base;
}
std::size_t Window::size() const {
  return w_->size;
}
int Window::disp_unit() const {
  return w_->disp_unit;
}
bool Window::freed() const {
  return w_->freed;
}
std::shared_ptr<void> Window::memory_keeper() const {
  return w_->memory;
}
Counters Window::counters() const {
  return w_->engine.window_counters(w_->id);
}
bool Window::passive_access() const {
  return w_->epochs.access() == core::Access::lock || w_->epochs.access() == core::Access::lock_all;
}

namespace {

// The full put and get, out of line: Window::put and get then set up no frame for them
// before the fast path (core/window_fast.hpp) has answered.
[[gnu::noinline]] Status full_put(Win& w, const void* origin, std::size_t count, Dtype dtype,
                                  int target, std::uint64_t disp) {
  RmaOp op = make_op(PacketType::put, target, count, dtype, Op::replace, origin);
  return communicate(w, "put", &core::WindowOps::put, op, disp, false);
}
[[gnu::noinline]] Status full_get(Win& w, void* origin, std::size_t count, Dtype dtype, int target,
                                  std::uint64_t disp) {
  RmaOp op = make_op(PacketType::get, target, count, dtype, Op::replace, nullptr, origin);
  return communicate(w, "get", &core::WindowOps::get, op, disp, false);
}

}  // namespace

Status Window::put(const void* origin, std::size_t count, Dtype dtype, int target,
                   std::uint64_t disp) {
  if (core::fast_copy(*w_, DirectOp::put, origin, nullptr, target, disp, count, dtype)) [[likely]]
    return Status::ok();
  return full_put(*w_, origin, count, dtype, target, disp);
}

Status Window::get(void* origin, std::size_t count, Dtype dtype, int target, std::uint64_t disp) {
  if (core::fast_copy(*w_, DirectOp::get, nullptr, origin, target, disp, count, dtype)) [[likely]]
    return Status::ok();
  return full_get(*w_, origin, count, dtype, target, disp);
}

Status Window::accumulate(const void* origin, std::size_t count, Dtype dtype, int target,
                          std::uint64_t disp, Op o) {
  RmaOp op = make_op(PacketType::accumulate, target, count, dtype, o, origin);
  return communicate(*w_, "accumulate", &core::WindowOps::accumulate, op, disp, false);
}

Status Window::get_accumulate(const void* origin, void* result, std::size_t count, Dtype dtype,
                              int target, std::uint64_t disp, Op o) {
  RmaOp op = make_op(PacketType::get_accumulate, target, count, dtype, o, origin, result);
  return communicate(*w_, "get_accumulate", &core::WindowOps::get_accumulate, op, disp, false);
}

Status Window::fetch_and_op(const void* origin, void* result, Dtype dtype, int target,
                            std::uint64_t disp, Op o) {
  RmaOp op = make_op(PacketType::fetch_and_op, target, 1, dtype, o, origin, result);
  return communicate(*w_, "fetch_and_op", &core::WindowOps::fetch_and_op, op, disp, false);
}

Status Window::compare_and_swap(const void* origin, const void* compare, void* result, Dtype dtype,
                                int target, std::uint64_t disp) {
  RmaOp op =
      make_op(PacketType::compare_and_swap, target, 1, dtype, Op::replace, origin, result, compare);
  return communicate(*w_, "compare_and_swap", &core::WindowOps::compare_and_swap, op, disp, false);
}

namespace {

Result<Request> request_op(Win& w, const char* name, Slot core::WindowOps::*slot, RmaOp op,
                           std::uint64_t disp) {
  auto state = std::make_shared<core::RequestState>();
  state->win = &w;
  state->target = op.target;
  op.request = state;
  RMA_TRY(communicate(w, name, slot, op, disp, true));
  return core::Win::make_request(std::move(state));
}

}  // namespace

Result<Request> Window::rput(const void* origin, std::size_t count, Dtype dtype, int target,
                             std::uint64_t disp) {
  return request_op(*w_, "rput", &core::WindowOps::put,
                    make_op(PacketType::put, target, count, dtype, Op::replace, origin), disp);
}

Result<Request> Window::rget(void* origin, std::size_t count, Dtype dtype, int target,
                             std::uint64_t disp) {
  return request_op(*w_, "rget", &core::WindowOps::get,
                    make_op(PacketType::get, target, count, dtype, Op::replace, nullptr, origin),
                    disp);
}

Result<Request> Window::raccumulate(const void* origin, std::size_t count, Dtype dtype, int target,
                                    std::uint64_t disp, Op o) {
  return request_op(*w_, "raccumulate", &core::WindowOps::accumulate,
                    make_op(PacketType::accumulate, target, count, dtype, o, origin), disp);
}

Result<Request> Window::rget_accumulate(const void* origin, void* result, std::size_t count,
                                        Dtype dtype, int target, std::uint64_t disp, Op o) {
  return request_op(*w_, "rget_accumulate", &core::WindowOps::get_accumulate,
                    make_op(PacketType::get_accumulate, target, count, dtype, o, origin, result),
                    disp);
}

Status Request::wait() {
  if (!state_) return {ErrorClass::arg, "wait: not a request"};
  core::RequestState& s = *state_;
  if (s.done) return s.status;
  if (!s.parts.empty()) {  // a derived-type op's pieces: all of them, the first error kept
    for (auto& part : s.parts) {
      Status st = Request(part).wait();
      if (!st && s.status) s.status = std::move(st);
    }
    s.done = true;
    return s.status;
  }
  Win& w = *s.win;
  Entry e(w, "request wait", s.target);
  RMA_TRY(e.usable());
  return w.ops->request_wait(e.call, s);
}

Result<bool> Request::test() {
  if (!state_) return Status{ErrorClass::arg, "test: not a request"};
  core::RequestState& s = *state_;
  if (!s.done && !s.parts.empty()) {
    for (auto& part : s.parts) {
      auto done = Request(part).test();
      if (!done) return done;
      if (!*done) return false;
    }
    for (auto& part : s.parts)
      if (!part->status && s.status) s.status = part->status;
    s.done = true;
  } else if (!s.done) {
    Win& w = *s.win;
    Entry e(w, "request test", s.target);
    RMA_TRY(e.usable());
    auto done = w.ops->request_test(e.call, s);
    if (!done) return done;
  }
  if (s.done && !s.status) return s.status;
  return s.done.load();
}

// --- synchronization --------------------------------------------------------------------------

Status Window::fence(unsigned asserts) {
  Entry e(*w_, "fence", -1);
  RMA_TRY(e.usable());
  RMA_TRY(w_->epochs.can_fence(asserts, w_->epochs.access() == core::Access::fence));
  RMA_TRY(w_->ops->fence(e.call, asserts));
  w_->epochs.did_fence(asserts);
  return Status::ok();
}

Status Window::post(std::span<const int> group, unsigned asserts) {
  Entry e(*w_, "post", -1);
  RMA_TRY(e.usable());
  RMA_TRY(check_group(*w_, "post", group));
  RMA_TRY(w_->epochs.can_post(group, asserts));
  RMA_TRY(w_->ops->post(e.call, group, asserts));
  w_->epochs.did_post(group, asserts);
  return Status::ok();
}

Status Window::start(std::span<const int> group, unsigned asserts) {
  Entry e(*w_, "start", -1);
  RMA_TRY(e.usable());
  RMA_TRY(check_group(*w_, "start", group));
  RMA_TRY(w_->epochs.can_start(group, asserts));
  RMA_TRY(w_->ops->start(e.call, group, asserts));
  w_->epochs.did_start(group, asserts);
  return Status::ok();
}

Status Window::complete() {
  Entry e(*w_, "complete", -1);
  RMA_TRY(e.usable());
  RMA_TRY(w_->epochs.can_complete());
  RMA_TRY(w_->ops->complete(e.call));
  w_->epochs.did_complete();
  return Status::ok();
}

Status Window::wait() {
  Entry e(*w_, "wait", -1);
  RMA_TRY(e.usable());
  RMA_TRY(w_->epochs.can_wait("wait"));
  RMA_TRY(w_->ops->wait(e.call));
  w_->epochs.did_wait();
  return Status::ok();
}

Result<bool> Window::test() {
  Entry e(*w_, "test", -1);
  RMA_TRY(e.usable());
  RMA_TRY(w_->epochs.can_wait("test"));
  auto done = w_->ops->test(e.call);
  if (done && *done) w_->epochs.did_wait();
  return done;
}

Status Window::lock(LockType type, int target, unsigned asserts) {
  Entry e(*w_, "lock", target);
  RMA_TRY(e.usable());
  RMA_TRY(w_->rt.check_peer("lock", target, true));
  RMA_TRY(w_->epochs.can_lock(target, asserts, w_->info.no_locks));
  if (target != proc_null) RMA_TRY(w_->ops->lock(e.call, type, target, asserts));
  w_->epochs.did_lock(target, type, asserts);
  return Status::ok();
}

Status Window::unlock(int target) {
  Entry e(*w_, "unlock", target);
  RMA_TRY(e.usable());
  RMA_TRY(w_->rt.check_peer("unlock", target, true));
  RMA_TRY(w_->epochs.can_unlock(target));
  if (target != proc_null) RMA_TRY(w_->ops->unlock(e.call, target));
  w_->epochs.did_unlock(target);
  return Status::ok();
}

Status Window::lock_all(unsigned asserts) {
  Entry e(*w_, "lock_all", -1);
  RMA_TRY(e.usable());
  RMA_TRY(w_->epochs.can_lock_all(asserts, w_->info.no_locks));
  RMA_TRY(w_->ops->lock_all(e.call, asserts));
  w_->epochs.did_lock_all(asserts);
  return Status::ok();
}

Status Window::unlock_all() {
  Entry e(*w_, "unlock_all", -1);
  RMA_TRY(e.usable());
  RMA_TRY(w_->epochs.can_unlock_all());
  RMA_TRY(w_->ops->unlock_all(e.call));
  w_->epochs.did_unlock_all();
  return Status::ok();
}

Status Window::flush(int target) {
  Entry e(*w_, "flush", target);
  RMA_TRY(e.usable());
  RMA_TRY(w_->rt.check_peer("flush", target, true));
  RMA_TRY(w_->epochs.can_flush("flush", target));
  if (target == proc_null) return Status::ok();
  return w_->ops->flush(e.call, target);
}

Status Window::flush_local(int target) {
  Entry e(*w_, "flush_local", target);
  RMA_TRY(e.usable());
  RMA_TRY(w_->rt.check_peer("flush_local", target, true));
  RMA_TRY(w_->epochs.can_flush("flush_local", target));
  if (target == proc_null) return Status::ok();
  return w_->ops->flush_local(e.call, target);
}

Status Window::flush_all() {
  Entry e(*w_, "flush_all", -1);
  RMA_TRY(e.usable());
  RMA_TRY(w_->epochs.can_flush("flush_all", -1));
  return w_->ops->flush_all(e.call);
}

Status Window::flush_local_all() {
  Entry e(*w_, "flush_local_all", -1);
  RMA_TRY(e.usable());
  RMA_TRY(w_->epochs.can_flush("flush_local_all", -1));
  return w_->ops->flush_local_all(e.call);
}

Status Window::sync() {
  Entry e(*w_, "sync", -1);
  RMA_TRY(e.usable());
  return w_->ops->sync(e.call);
}

// --- dynamic and shared windows ---------------------------------------------------------------

Status Window::attach(void* base, std::size_t size) {
  Entry e(*w_, "attach", -1);
  RMA_TRY(e.usable());
  if (w_->flavor != Flavor::dynamic)
    return {ErrorClass::rma_flavor, where(*w_, "attach", -1) + ": only dynamic windows attach"};
  if (!base && size) return {ErrorClass::buffer, where(*w_, "attach", -1) + ": null memory"};
  const auto b = reinterpret_cast<std::uintptr_t>(base);
  for (const auto& r : w_->attached)
    if (b < r.base + r.size && r.base < b + size)
      return {ErrorClass::rma_attach,
              where(*w_, "attach", -1) + ": the memory overlaps a region already attached"};
  w_->attached.push_back({b, size});
  return Status::ok();
}

Status Window::detach(const void* base) {
  Entry e(*w_, "detach", -1);
  RMA_TRY(e.usable());
  if (w_->flavor != Flavor::dynamic)
    return {ErrorClass::rma_flavor, where(*w_, "detach", -1) + ": only dynamic windows detach"};
  const auto b = reinterpret_cast<std::uintptr_t>(base);
  auto it = std::find_if(w_->attached.begin(), w_->attached.end(),
                         [&](const core::Win::Region& r) { return r.base == b; });
  if (it == w_->attached.end())
    return {ErrorClass::rma_attach, where(*w_, "detach", -1) + ": no region attached there"};
  w_->attached.erase(it);
  return Status::ok();
}

Result<SharedRegion> Window::shared_query(int rank) {
  Entry e(*w_, "shared_query", rank);
  RMA_TRY(e.usable());
  RMA_TRY(w_->rt.check_peer("shared_query", rank, false));
  if (rank == w_->rank()) return SharedRegion{w_->base, w_->size, w_->disp_unit, w_->memory};
  // An am window may be mapped too, for the transport's copies: not the user's to load from.
  if (w_->backend && (w_->path == Path::direct || w_->flavor == Flavor::shared))
    return w_->backend->shared_query(rank);
  return Status{
      ErrorClass::rma_flavor,
      where(*w_, "shared_query", rank) +
          ": another rank's memory is only mapped by shared windows and on the direct path"};
}

Status Window::free() {
  Entry e(*w_, "free", -1);
  RMA_TRY(e.usable());
  RMA_TRY(w_->epochs.can_free());
  if (w_->backend) w_->backend->freeing();
  RMA_TRY(w_->ops->free(e.call));
  w_->rt.forget_window(*w_);
  return Status::ok();
}

}  // namespace rma
