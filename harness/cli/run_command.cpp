// `rmabench run`: the cases of a script or suite, each on rank processes the launcher
// spawns, through the run pipeline (cli/pipeline.hpp). Started by an external PMIx launcher,
// this process is one task of a job whose agents start the ranks (cli/pmix_run.cpp).
#include "cli/commands.hpp"
#include "cli/impl_list.hpp"
#include "cli/launcher_executor.hpp"
#include "cli/pipeline.hpp"
#include "cli/provider_check.hpp"
#include "launcher/topology.hpp"
#include "mpi/mpi_launch.hpp"
#include "rma/bootstrap.hpp"

#include <string>
#include <utility>
#include <vector>

namespace harness::cli {
namespace {

nlohmann::json options_json(const RunArgs& a) {
  const auto& o = a.overrides;
  nlohmann::json j = {{"input", a.input}, {"bind", o.bind}};
  if (o.ranks) j["ranks"] = *o.ranks;
  if (o.backend) j["backend"] = *o.backend;
  if (o.path) j["path"] = *o.path;
  if (o.progress) j["progress"] = *o.progress;
  if (o.protocol) j["protocol"] = *o.protocol;
  if (o.provider) j["provider"] = *o.provider;
  if (o.timeout_s) j["timeout_s"] = *o.timeout_s;
  if (o.eager_limit) j["eager_limit"] = *o.eager_limit;
  if (!o.filter.empty()) j["filter"] = o.filter;
  if (o.trace) j["trace"] = true;
  j["options"] = o.options;
  return j;
}

// Drops the cases whose id does not contain `filter` (all kept when it is empty).
void keep_matching(suite::Expansion& ex, const std::string& filter, const std::string& input) {
  if (filter.empty()) return;
  auto misses = [&](const suite::CaseSpec& c) { return c.id.find(filter) == std::string::npos; };
  std::erase_if(ex.cases, misses);
  std::erase_if(ex.excluded, [&](const auto& e) { return misses(e.first); });
  if (ex.cases.empty() && ex.excluded.empty())
    throw suite::UsageError(input + ": no case to run matches --filter");
}

}  // namespace

int run_command(RunArgs& args) {
  if (rma::bootstrap::pmix_available()) return run_under_pmix(args);
  if (split_impl_list(args.impl).size() > 1)
    throw suite::UsageError("--impl " + args.impl +
                            ": `run` takes one implementation; a list is for `rmabench bench`");
  const auto mpi = mpi::mpi_for_run(args.impl, args.mpi_args, args.mpi_env, args.mpi_start);
  RunPlan plan;
  // On an MPI the filter matches the ids the run prints (`[impl=...,np=...]`), not the
  // reference's ids the cases expand to first.
  const std::string filter = mpi ? std::exchange(args.overrides.filter, std::string()) : "";
  plan.expansion = expand_input(args);
  if (mpi) {
    mpi::retarget(plan.expansion, *mpi, args.overrides.progress.has_value());
    args.overrides.filter = filter;
    keep_matching(plan.expansion, filter, args.input);
  }
  check_provider(args.overrides.provider, plan.expansion, args.input, libfabric_providers());
  plan.command = args.command_line;
  plan.options = options_json(args);
  if (mpi) plan.options["impl"] = mpi::mpi_context(*mpi);
  launcher::Topology topology;
  plan.topology = topology.summary();
  LauncherExecutor executor(
      args, topology, false,
      mpi ? std::vector<mpi::MpiLaunch>{*mpi} : std::vector<mpi::MpiLaunch>{});
  return run_pipeline(args, plan, executor);
}

}  // namespace harness::cli
