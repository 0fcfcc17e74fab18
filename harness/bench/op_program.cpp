#include "bench/op_program.hpp"

namespace harness::bench {
namespace {

using K = RecordedCall::Kind;

rma::Status wait_request(rma::Result<rma::Request> r) {
  if (!r) return r.status();
  return r->wait();
}

}  // namespace

std::string_view to_string(RecordedCall::Kind k) {
  static constexpr std::string_view names[] = {
      "put", "get", "accumulate", "get_accumulate", "fetch_and_op", "compare_and_swap",
      "rput", "rget", "raccumulate", "rget_accumulate",
      "fence", "post", "start", "complete", "wait", "lock", "unlock", "lock_all", "unlock_all",
      "flush", "flush_local", "flush_all", "flush_local_all", "sync",
      "barrier", "send", "recv"};
  return names[static_cast<int>(k)];
}

void OpProgram::add(RecordedCall c, std::vector<std::shared_ptr<void>> keep) {
  calls_.push_back(std::move(c));
  for (auto& k : keep)
    if (k) keep_.push_back(std::move(k));
}

rma::Status OpProgram::replay(rma::Runtime& rt) const {
  for (const RecordedCall& c : calls_) {
    rma::Window* w = c.win;
    rma::Status s;
    switch (c.kind) {
      case K::put: s = w->put(c.origin, c.count, c.dtype, c.target, c.disp); break;
      case K::get: s = w->get(c.result, c.count, c.dtype, c.target, c.disp); break;
      case K::accumulate: s = w->accumulate(c.origin, c.count, c.dtype, c.target, c.disp, c.op); break;
      case K::get_accumulate:
        s = w->get_accumulate(c.origin, c.result, c.count, c.dtype, c.target, c.disp, c.op);
        break;
      case K::fetch_and_op: s = w->fetch_and_op(c.origin, c.result, c.dtype, c.target, c.disp, c.op); break;
      case K::compare_and_swap:
        s = w->compare_and_swap(c.origin, c.compare, c.result, c.dtype, c.target, c.disp);
        break;
      case K::rput: s = wait_request(w->rput(c.origin, c.count, c.dtype, c.target, c.disp)); break;
      case K::rget: s = wait_request(w->rget(c.result, c.count, c.dtype, c.target, c.disp)); break;
      case K::raccumulate:
        s = wait_request(w->raccumulate(c.origin, c.count, c.dtype, c.target, c.disp, c.op));
        break;
      case K::rget_accumulate:
        s = wait_request(
            w->rget_accumulate(c.origin, c.result, c.count, c.dtype, c.target, c.disp, c.op));
        break;
      case K::fence: s = w->fence(c.asserts); break;
      case K::post: s = w->post(c.group, c.asserts); break;
      case K::start: s = w->start(c.group, c.asserts); break;
      case K::complete: s = w->complete(); break;
      case K::wait: s = w->wait(); break;
      case K::lock: s = w->lock(c.lock_type, c.target, c.asserts); break;
      case K::unlock: s = w->unlock(c.target); break;
      case K::lock_all: s = w->lock_all(c.asserts); break;
      case K::unlock_all: s = w->unlock_all(); break;
      case K::flush: s = w->flush(c.target); break;
      case K::flush_local: s = w->flush_local(c.target); break;
      case K::flush_all: s = w->flush_all(); break;
      case K::flush_local_all: s = w->flush_local_all(); break;
      case K::sync: s = w->sync(); break;
      case K::barrier: s = rt.barrier(); break;
      case K::send: s = rt.send(c.target, c.origin, c.bytes, c.tag); break;
      case K::recv: s = rt.recv(c.target, c.result, c.bytes, c.tag); break;
    }
    if (!s) return s;
  }
  return rma::Status::ok();
}

std::string OpProgram::summary() const {
  std::string s;
  for (const auto& c : calls_) s += (s.empty() ? "" : ", ") + std::string(to_string(c.kind));
  return s.empty() ? "nothing" : s;
}

}  // namespace harness::bench
