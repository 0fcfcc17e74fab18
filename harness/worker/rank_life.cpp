// The rank side both rank mains share (rank_life.hpp).
#include "worker/rank_life.hpp"

#include <unistd.h>

#include <atomic>
#include <thread>
#include <type_traits>

#include "rma/pending_names.hpp"
#include "worker/bench_loop.hpp"
#include "worker/bench_runner.hpp"
#include "worker/case_runner.hpp"
#include "worker/floor_bench.hpp"

namespace harness::worker {

void wait_to_be_stopped() {
  for (;;) ::pause();
}

std::optional<suite::CaseSpec> greet(launcher::ControlChannel& ctrl, const launcher::Hello& hello) {
  ctrl.send(hello);
  auto msg = ctrl.receive();
  if (!msg) return std::nullopt;
  if (auto* c = std::get_if<launcher::CaseMessage>(&*msg)) return c->spec;
  return std::nullopt;
}

void answer_parent(launcher::ControlChannel* ctrl, StateBoard* board, int rank) {
  std::thread([ctrl, board, rank] {
    while (auto m = ctrl->receive()) {
      if (std::holds_alternative<launcher::StateQuery>(*m)) {
        ctrl->send(launcher::State{board->snapshot(rank)});
      } else if (auto* stop = std::get_if<launcher::StopCompute>(&*m)) {
        compute_stop_batch().store(stop->batch, std::memory_order_release);
      }
    }
    // Often this comes before the parent-death signal, so the names a death handler would
    // remove go here too.
    rma::unlink_pending_names();
    ::_exit(72);
  }).detach();
}

nlohmann::json run_by_mode(const suite::CaseSpec& spec, impl::Implementation& impl,
                           launcher::ControlChannel& ctrl, StateBoard& board) {
  switch (spec.mode) {
    case suite::CaseMode::bench:
      return run_bench_script(spec, impl, ctrl, board);
    case suite::CaseMode::floor:
      return run_floor_bench(spec, impl, ctrl, board);
    case suite::CaseMode::run:
      break;
  }
  return run_case_script(spec, impl, ctrl, board);
}

void send_result(launcher::ControlChannel& ctrl, nlohmann::json body,
                 const std::string& impl_name) {
  launcher::Result result{std::move(body)};
  if (!impl_name.empty()) result.body["impl"] = impl_name;
  ctrl.send(result);
  if (result.early()) wait_to_be_stopped();
}

void report_early_error(launcher::ControlChannel& ctrl, int rank, const std::string& where,
                        const std::string& message, const std::string& impl_name) {
  launcher::Result r = launcher::error_result(rank, where, message);
  if (!impl_name.empty()) r.body["impl"] = impl_name;
  ctrl.send(r);
  wait_to_be_stopped();
}

}  // namespace harness::worker
