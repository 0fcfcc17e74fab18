// `rmabench run` started by an external launcher that provides PMIx (mpirun, srun
// --mpi=pmix): every task of the job runs this. The tasks agree on the run before any case
// (--provider checked on every host), then join as one job (launcher/pmix_job.hpp): task 0
// runs the run pipeline as `rmabench run` always does, with the job's agents starting the
// ranks, and every other task serves as an agent until the run ends.

#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/launcher_executor.hpp"
#include "cli/pipeline.hpp"
#include "cli/provider_check.hpp"
#include "launcher/launch_env.hpp"
#include "launcher/pmix_job.hpp"
#include "launcher/topology.hpp"
#include "rma/bootstrap.hpp"

namespace harness::cli {
namespace {

void must(const rma::Status& s) {
  if (!s) throw std::runtime_error(s.to_string());
}

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

  if (!pmix.fence()) return kExitRunError;
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

  launcher::PmixJob job(pmix, self_exe());
  if (job.task() != 0) return job.serve();
  launcher::Topology topology;
  LauncherExecutor executor(args, topology, false, {}, &job);
  return run_pipeline(args, plan, executor);
}

}  // namespace harness::cli
