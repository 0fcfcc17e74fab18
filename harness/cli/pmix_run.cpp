// `rmabench run` started by an external launcher that provides PMIx (mpirun, srun
// --mpi=pmix): this process is one rank of every case. How such ranks run a case, keep its
// deadline and merge its result is the launcher's (launcher/starter_pmix.hpp); here are the
// choice of this mode, the ranks' agreement on the run before any case, and what a rank runs
// (the case's script, worker/). The case loop, the console and the report are the run
// pipeline's (cli/pipeline.hpp): rank 0 prints and writes, rewriting the report after every
// case and writing each case as a crash before it runs, since a launcher that sees a rank
// die kills the whole job at once.
#include <unistd.h>

#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "cli/provider_check.hpp"
#include "launcher/launch_env.hpp"
#include "launcher/starter_pmix.hpp"
#include "launcher/topology.hpp"
#include "rma/bootstrap.hpp"
#include "worker/case_runner.hpp"
#include "worker/state_board.hpp"
#include "worker/worker.hpp"

namespace harness::cli {
namespace {

using nlohmann::json;

void must(const rma::Status& s) {
  if (!s) throw std::runtime_error(s.to_string());
}

// The pipeline's view of this rank's part of every case (launcher/starter_pmix.hpp), with
// what the rank runs: the case's script under its own implementation.
class PmixExecutor final : public CaseExecutor {
 public:
  PmixExecutor(rma::bootstrap::Bootstrap& pmix, std::string job)
      : starter_(
            pmix, std::move(job),
            [this](const suite::CaseSpec& spec, rma::bootstrap::Bootstrap& boot) {
              return run_here(spec, boot);
            },
            [this] { return board_.snapshot(starter_.rank()); },
            [this](const reports::CaseResult& r) { return end_ ? end_(r) : kExitFailed; }) {}

  bool reports() const override { return starter_.rank() == 0; }
  bool stops_between_cases() const override { return false; }
  bool writes_after_each_case() const override { return true; }
  void on_run_end(RunEnd end) override { end_ = std::move(end); }

  std::optional<reports::CaseResult> pending(const suite::CaseSpec& spec) const override {
    return starter_.pending(spec);
  }

  Executed execute(const suite::CaseSpec& case_spec) override {
    Executed done;
    done.outcome = starter_.run(case_spec);
    return done;
  }

 private:
  // This rank's part of the case, under its own implementation.
  json run_here(const suite::CaseSpec& spec, rma::bootstrap::Bootstrap& case_boot) {
    auto im = worker::make_implementation(spec, case_boot);
    if (!im)
      return {{"rank", starter_.rank()},
              {"status", "error"},
              {"failures", {{{"where", "runtime"}, {"message", im.status().to_string()}}}}};
    // Logs go nowhere in this mode but the result; a control channel on /dev/null.
    launcher::ControlChannel quiet(::dup(STDERR_FILENO));
    json mine = worker::run_case_script(spec, *im.value(), quiet, board_);
    board_.detach();
    return mine;
  }

  worker::StateBoard board_;
  RunEnd end_;
  launcher::PmixStarter starter_;  // last: its deadline thread reads the members above
};

}  // namespace

int run_under_pmix(RunArgs& args) {
  auto boot = rma::bootstrap::pmix_client();
  if (!boot) {
    std::cerr << "rmabench: " << boot.status().to_string() << "\n";
    return kExitRunError;
  }
  rma::bootstrap::Bootstrap& pmix = *boot.value();
  const int size = pmix.size();
  RunPlan plan;
  plan.expansion = expand_input(args);
  plan.command = args.command_line + "  (under PMIx, " + std::to_string(size) + " ranks)";
  plan.options = {{"input", args.input}, {"launcher", "pmix"}, {"ranks", size}};
  plan.options.update(launcher::launch_env());  // "slurm", job, step, nodes
  plan.topology = launcher::Topology().summary();

  // --provider, checked by every rank on its own host before any case (as the launcher's
  // parent does, provider_check.hpp); the ranks agree on one verdict, so all stop or none.
  std::string refused;
  try {
    check_provider(args.overrides.provider, plan.expansion, args.input, libfabric_providers());
  } catch (const suite::UsageError& e) {
    refused = e.what();
  }
  must(pmix.put("rmabench.provider." + std::to_string(pmix.rank()), "!" + refused));

  // One name for this job's shared segments, from rank 0's pid: every rank agrees on it.
  std::string job = "pmix" + std::to_string(::getpid());
  if (pmix.rank() == 0) must(pmix.put("rmabench.job.0", job));
  if (!pmix.fence()) return kExitRunError;
  if (auto j = pmix.get("rmabench.job.0"); j) job = j.value();
  if (pmix.rank() == 0) {
    std::string verdict;
    for (int r = 0; r < size && verdict.empty(); ++r) {
      auto v = pmix.get("rmabench.provider." + std::to_string(r));
      if (!v) return kExitRunError;
      if (v.value().size() > 1)
        verdict = (r == 0 ? "" : "rank " + std::to_string(r) + ": ") + v.value().substr(1);
    }
    must(pmix.put("rmabench.provider_verdict.0", "!" + verdict));
  }
  if (!pmix.fence()) return kExitRunError;
  auto verdict = pmix.get("rmabench.provider_verdict.0");
  if (!verdict) return kExitRunError;
  if (verdict.value().size() > 1) {
    if (pmix.rank() != 0) return kExitUsage;  // rank 0 says why, once
    throw suite::UsageError(verdict.value().substr(1));
  }

  PmixExecutor executor(pmix, job);
  return run_pipeline(args, plan, executor);
}

}  // namespace harness::cli
