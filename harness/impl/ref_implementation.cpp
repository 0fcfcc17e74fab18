// ref_implementation.cpp — the reference over rma::Runtime. execute() is the harness's one
// switch over call::Kind: each call goes to the rma::Window or rma::Runtime method of its name.
// bind() hands replays the same methods for the calls benchmarks repeat most, resolved once.
#include "impl/ref_implementation.hpp"

#include <utility>
#include <vector>

namespace harness::impl {
namespace {

class RefRequest final : public Request {
 public:
  explicit RefRequest(rma::Request r) : r_(std::move(r)) {}
  rma::Status wait() override { return r_.wait(); }
  rma::Result<bool> test() override { return r_.test(); }

 private:
  rma::Request r_;
};

class RefWindow final : public Window {
 public:
  explicit RefWindow(rma::Window* w) : w_(w) {}
  rma::Window& get() const { return *w_; }

  int id() const override { return w_->id(); }
  rma::Flavor flavor() const override { return w_->flavor(); }
  std::string path() const override { return std::string(rma::to_string(w_->path())); }
  std::string path_detail() const override { return w_->path_detail(); }
  void* base() const override { return w_->base(); }
  std::size_t size() const override { return w_->size(); }
  bool freed() const override { return w_->freed(); }
  bool passive_access() const override { return w_->passive_access(); }
  std::shared_ptr<void> memory_keeper() const override { return w_->memory_keeper(); }
  rma::Result<rma::SharedRegion> shared_query(int rank) override { return w_->shared_query(rank); }
  std::optional<rma::Counters> counters() const override { return w_->counters(); }

 private:
  rma::Window* w_;
};

class Reference final : public Implementation {
 public:
  explicit Reference(std::unique_ptr<rma::Runtime> rt) : rt_(std::move(rt)) {}

  std::string name() const override { return "ref"; }
  int rank() const override { return rt_->rank(); }
  int size() const override { return rt_->size(); }
  std::size_t eager_limit() const override { return rt_->eager_limit(); }
  bool supports_layouts() const override { return true; }

  rma::Result<Window*> create_window(const rma::WindowConfig& config) override {
    auto w = rt_->create_window(config);
    if (!w) return w.status();
    windows_.push_back(std::make_unique<RefWindow>(w.value()));
    return windows_.back().get();
  }
  rma::Result<void*> alloc_mem(std::size_t bytes) override { return rt_->alloc_mem(bytes); }
  rma::Status free_mem(void* base) override { return rt_->free_mem(base); }

  rma::Status execute(const call::Call& c, Outcome* out) override;
  Bound bind(const call::Call& c) override;

  std::optional<rma::Counters> counters() const override { return rt_->counters(); }
  rma::RankState state() const override { return rt_->state(); }
  void poke() override { rt_->poke(); }

 private:
  std::unique_ptr<rma::Runtime> rt_;
  std::vector<std::unique_ptr<RefWindow>> windows_;
};

rma::Status hand_over(rma::Result<rma::Request> r, Outcome* out) {
  if (!r) return r.status();
  out->request = std::make_unique<RefRequest>(std::move(r.value()));
  return rma::Status::ok();
}

// Out of line: the messages are built only when a call is refused, and the switch below stays
// a jump to the call (this runs for every call a benchmark replays).
[[gnu::cold, gnu::noinline]] rma::Status refused(rma::ErrorClass cls, call::Kind k,
                                                 const char* why) {
  return {cls, std::string(call::to_string(k)) + why};
}

// The communication calls with a layout table: each side's (count, type).
rma::Status execute_layout(rma::Window& w, const call::Call& c, Outcome* out) {
  using K = call::Kind;
  const rma::Layout &o = c.origin_layout, &r = c.result_layout, &t = c.target_layout;
  switch (c.kind) {
    case K::put:
      return w.put(c.origin, o, c.target, c.disp, t);
    case K::get:
      return w.get(c.result, o, c.target, c.disp, t);
    case K::accumulate:
      return w.accumulate(c.origin, o, c.target, c.disp, t, c.op);
    case K::get_accumulate:
      return w.get_accumulate(c.origin, o, c.result, r, c.target, c.disp, t, c.op);
    case K::rput:
      return hand_over(w.rput(c.origin, o, c.target, c.disp, t), out);
    case K::rget:
      return hand_over(w.rget(c.result, o, c.target, c.disp, t), out);
    case K::raccumulate:
      return hand_over(w.raccumulate(c.origin, o, c.target, c.disp, t, c.op), out);
    case K::rget_accumulate:
      return hand_over(w.rget_accumulate(c.origin, o, c.result, r, c.target, c.disp, t, c.op), out);
    default:
      return refused(rma::ErrorClass::arg, c.kind, " takes no layout");
  }
}

rma::Status Reference::execute(const call::Call& c, Outcome* out) {
  using K = call::Kind;
  const call::Family family = call::describe(c.kind).family;
  if (family != call::Family::job && !c.win) [[unlikely]]
    return refused(rma::ErrorClass::win, c.kind, ": no window");
  if (family == call::Family::request && !out) [[unlikely]]
    return refused(rma::ErrorClass::intern, c.kind, ": nowhere to hand the request");
  rma::Window* w = c.win ? &static_cast<RefWindow*>(c.win)->get() : nullptr;
  if (c.has_layout()) [[unlikely]]
    return execute_layout(*w, c, out);
  switch (c.kind) {
    case K::put:
      return w->put(c.origin, c.count, c.dtype, c.target, c.disp);
    case K::get:
      return w->get(c.result, c.count, c.dtype, c.target, c.disp);
    case K::accumulate:
      return w->accumulate(c.origin, c.count, c.dtype, c.target, c.disp, c.op);
    case K::get_accumulate:
      return w->get_accumulate(c.origin, c.result, c.count, c.dtype, c.target, c.disp, c.op);
    case K::fetch_and_op:
      return w->fetch_and_op(c.origin, c.result, c.dtype, c.target, c.disp, c.op);
    case K::compare_and_swap:
      return w->compare_and_swap(c.origin, c.compare, c.result, c.dtype, c.target, c.disp);
    case K::rput:
      return hand_over(w->rput(c.origin, c.count, c.dtype, c.target, c.disp), out);
    case K::rget:
      return hand_over(w->rget(c.result, c.count, c.dtype, c.target, c.disp), out);
    case K::raccumulate:
      return hand_over(w->raccumulate(c.origin, c.count, c.dtype, c.target, c.disp, c.op), out);
    case K::rget_accumulate:
      return hand_over(
          w->rget_accumulate(c.origin, c.result, c.count, c.dtype, c.target, c.disp, c.op), out);
    case K::fence:
      return w->fence(c.asserts);
    case K::post:
      return w->post(c.group, c.asserts);
    case K::start:
      return w->start(c.group, c.asserts);
    case K::complete:
      return w->complete();
    case K::wait:
      return w->wait();
    case K::test: {
      auto done = w->test();
      if (!done) return done.status();
      if (out) out->flag = done.value();
      return rma::Status::ok();
    }
    case K::lock:
      return w->lock(c.lock_type, c.target, c.asserts);
    case K::unlock:
      return w->unlock(c.target);
    case K::lock_all:
      return w->lock_all(c.asserts);
    case K::unlock_all:
      return w->unlock_all();
    case K::flush:
      return w->flush(c.target);
    case K::flush_local:
      return w->flush_local(c.target);
    case K::flush_all:
      return w->flush_all();
    case K::flush_local_all:
      return w->flush_local_all();
    case K::sync:
      return w->sync();
    // attach's memory is the script's: the library may write to it through the window.
    case K::attach:
      return w->attach(const_cast<void*>(c.origin), c.bytes);
    case K::detach:
      return w->detach(c.origin);
    case K::free:
      return w->free();
    case K::barrier:
      return rt_->barrier();
    case K::send:
      return rt_->send(c.target, c.origin, c.bytes, c.tag);
    case K::recv:
      return rt_->recv(c.target, c.result, c.bytes, c.tag, out ? &out->received : nullptr);
  }
  return {rma::ErrorClass::intern, "unknown call"};
}

// --- bindings for replays: the window calls a benchmark repeats most, each straight to its
// rma::Window method (what execute() does for them after its checks and its switch).

rma::Window& win(void* w) {
  return *static_cast<rma::Window*>(w);
}
bool kept(rma::Status s, rma::Status& failure) {
  if (s) [[likely]]
    return true;
  failure = std::move(s);
  return false;
}
bool run_put(void* w, const call::Call& c, rma::Status& failure) {
  return kept(win(w).put(c.origin, c.count, c.dtype, c.target, c.disp), failure);
}
bool run_get(void* w, const call::Call& c, rma::Status& failure) {
  return kept(win(w).get(c.result, c.count, c.dtype, c.target, c.disp), failure);
}
bool run_accumulate(void* w, const call::Call& c, rma::Status& failure) {
  return kept(win(w).accumulate(c.origin, c.count, c.dtype, c.target, c.disp, c.op), failure);
}
bool run_lock(void* w, const call::Call& c, rma::Status& failure) {
  return kept(win(w).lock(c.lock_type, c.target, c.asserts), failure);
}
bool run_unlock(void* w, const call::Call& c, rma::Status& failure) {
  return kept(win(w).unlock(c.target), failure);
}
bool run_flush(void* w, const call::Call& c, rma::Status& failure) {
  return kept(win(w).flush(c.target), failure);
}

Implementation::Bound Reference::bind(const call::Call& c) {
  using K = call::Kind;
  if (!c.win || c.has_layout()) return {};
  void* w = &static_cast<RefWindow*>(c.win)->get();
  switch (c.kind) {
    case K::put:
      return {run_put, w};
    case K::get:
      return {run_get, w};
    case K::accumulate:
      return {run_accumulate, w};
    case K::lock:
      return {run_lock, w};
    case K::unlock:
      return {run_unlock, w};
    case K::flush:
      return {run_flush, w};
    default:
      return {};  // through execute()
  }
}

}  // namespace

rma::Result<std::unique_ptr<Implementation>> make_reference(const rma::RuntimeConfig& config,
                                                            rma::bootstrap::Bootstrap& boot) {
  auto rt = rma::Runtime::create(config, boot);
  if (!rt) return rt.status();
  return std::unique_ptr<Implementation>(std::make_unique<Reference>(std::move(rt.value())));
}

}  // namespace harness::impl
