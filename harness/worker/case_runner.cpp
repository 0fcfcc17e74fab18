#include "worker/case_runner.hpp"

#include <optional>

#include "races/recorder.hpp"
#include "rma/trace.hpp"
#include "worker/script_session.hpp"
#include "worker/trace_record.hpp"

namespace harness::worker {

using nlohmann::json;

namespace {
json run_hooks(const suite::CaseSpec& spec, impl::Implementation& impl,
               launcher::ControlChannel& ctrl, StateBoard& board);
}  // namespace

json run_case_script(const suite::CaseSpec& spec, impl::Implementation& impl,
                     launcher::ControlChannel& ctrl, StateBoard& board) {
  // --check races: this rank's log goes with its result, whatever the outcome; the parent
  // checks all ranks' logs together (launcher/rank_results.cpp).
  std::optional<races::Recorder> recorder;
  if (spec.check == suite::Check::races && spec.mode == suite::CaseMode::run) {
    recorder.emplace(impl.rank());
    races::Recorder::set_active(&*recorder);
  }
  struct Deactivate {
    ~Deactivate() { races::Recorder::set_active(nullptr); }
  } deactivate;
  json out = run_hooks(spec, impl, ctrl, board);
  if (recorder && out.is_object()) out["races_log"] = recorder->to_json();
  return out;
}

namespace {

json run_hooks(const suite::CaseSpec& spec, impl::Implementation& impl,
               launcher::ControlChannel& ctrl, StateBoard& board) {
  ScriptSession s(spec, impl, ctrl, board);
  lua::LuaFailure f;
  if (!s.load(f)) return s.ended(f);
  const int iterations = s.iterations();

  if (!s.call_hook("setup", f)) return s.ended(f);
  if (!s.barrier(f)) return s.ended(f);

  // The counting window opens between two barriers: after the first, no traffic of any
  // rank's setup is left; until the second, no rank's run has begun (a fast rank's first
  // op must not reach a target that has not taken its snapshot yet).
  s.phase("run");
  const std::optional<rma::Counters> before = impl.counters();
  // --trace: before the barrier, so that no peer's first packet of `run` can come earlier.
  if (spec.trace) rma::trace::clear();
  if (!s.barrier(f)) return s.ended(f);
  for (int i = 0; i < iterations; ++i) {
    if (!s.call_hook("run", f)) return s.ended(f);
    if (!s.barrier(f)) return s.ended(f);
  }
  const std::optional<rma::Counters> after = impl.counters();

  json result = {{"rank", impl.rank()}, {"early", false}};
  if (spec.trace) result["trace"] = trace_json(impl.rank());
  if (before && after) {
    result["messages"] = counters_json(*after - *before);
  } else {
    result["messages"] = nullptr;  // not measured: never a zero
    result["messages_reason"] = "not observable in " + impl.name();
  }
  result["iterations"] = iterations;
  if (impl.rank() == 0) {
    json expected;
    if (!s.declared_messages(expected, f)) return s.ended(f);
    if (!expected.is_null()) result["expected_messages"] = expected;
  }

  if (!s.call_hook("check", f)) return s.ended(f, result);
  if (!s.barrier(f)) return s.ended(f, result);
  if (!s.call_hook("teardown", f)) return s.ended(f, result);
  if (!s.barrier(f)) return s.ended(f, result);
  s.phase("done");

  s.add_context(result);
  result["status"] = s.ctx().failures.empty() ? "pass" : "fail";
  return result;
}

}  // namespace
}  // namespace harness::worker
