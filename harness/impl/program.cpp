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

bool run_unbound(void* impl, const call::Call& c, rma::Status& failure) {
  failure = replay_one(*static_cast<Implementation*>(impl), c);
  return failure.is_ok();
}

}  // namespace

void Program::bind(Implementation& impl) const {
  bound_.clear();
  for (const call::Call& c : calls_) {
    Implementation::Bound b;
    if (call::describe(c.kind).family != call::Family::request) b = impl.bind(c);
    bound_.push_back(b.run ? b : Implementation::Bound{run_unbound, &impl});
  }
  bound_for_ = &impl;
}

rma::Status Program::replay(Implementation& impl, std::uint64_t times) const {
  // Traced or not is decided once per replay: the untraced loop is what benchmarks time, and
  // runs each call through its binding. Its bounds are locals, kept in registers across the
  // indirect calls.
  if (!rma::trace::on()) {
    if (bound_for_ != &impl) bind(impl);
    const Implementation::Bound* const bound = bound_.data();
    const call::Call* const calls = calls_.data();
    const std::size_t n = calls_.size();
    rma::Status failure;
    for (std::uint64_t k = 0; k < times; ++k)
      for (std::size_t i = 0; i < n; ++i)
        if (!bound[i].run(bound[i].target, calls[i], failure)) [[unlikely]]
          return failure;
    return failure;
  }
  for (std::uint64_t k = 0; k < times; ++k)
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
