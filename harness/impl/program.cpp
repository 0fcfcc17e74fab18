// program.cpp — recording and replaying calls through the implementation under test.
#include "impl/program.hpp"

#include "rma/trace.hpp"

namespace harness::impl {

bool Program::replays(call::Kind k) {
  return call::family_of(k) != call::Family::memory && k != call::Kind::test;
}

void Program::add(call::Call c, std::vector<std::shared_ptr<void>> keep) {
  calls_.push_back(std::move(c));
  for (auto& k : keep)
    if (k) keep_.push_back(std::move(k));
}

namespace {

// A request-based call: executed, then waited for. Out of line, so that the calls of every
// other kind, which benchmarks replay most, set up no Outcome.
[[gnu::noinline]] rma::Status replay_request(Implementation& impl, const call::Call& c) {
  Outcome out;
  RMA_TRY(impl.execute(c, &out));
  if (!out.request)
    return {rma::ErrorClass::intern, std::string(call::to_string(c.kind)) + ": no request"};
  return out.request->wait();
}

inline rma::Status replay_one(Implementation& impl, const call::Call& c) {
  if (call::describe(c.kind).family == call::Family::request) [[unlikely]]
    return replay_request(impl, c);
  return impl.execute(c, nullptr);
}

}  // namespace

rma::Status Program::replay(Implementation& impl) const {
  // Traced or not is decided once per replay: the untraced loop is what benchmarks time, and
  // runs each call through its binding where the implementation gave one.
  if (!rma::trace::on()) {
    if (bound_for_ != &impl) {
      bound_.clear();
      for (const call::Call& c : calls_)
        bound_.push_back(call::describe(c.kind).family == call::Family::request
                             ? Implementation::Bound{}
                             : impl.bind(c));
      bound_for_ = &impl;
    }
    rma::Status failure;
    for (std::size_t i = 0; i < calls_.size(); ++i) {
      const Implementation::Bound& b = bound_[i];
      if (!b.run) {
        RMA_TRY(replay_one(impl, calls_[i]));
      } else if (!b.run(b.target, calls_[i], failure)) [[unlikely]] {
        return failure;
      }
    }
    return failure;
  }
  for (const call::Call& c : calls_) {
    const std::int64_t t0 = rma::trace::now_ns();
    RMA_TRY(replay_one(impl, c));
    call::trace(c, impl.rank(), t0, rma::trace::now_ns());
  }
  return rma::Status::ok();
}

std::string Program::summary() const {
  std::string s;
  for (const auto& c : calls_) s += (s.empty() ? "" : ", ") + std::string(call::to_string(c.kind));
  return s.empty() ? "nothing" : s;
}

}  // namespace harness::impl
