// launcher_executor.hpp — carrying out a case the usual way: the launcher spawns its rank
// processes, watches them and reports (launcher/launcher.hpp). `run` and `bench` use it.
#pragma once

#include "cli/pipeline.hpp"
#include "launcher/topology.hpp"
#include "mpi/mpi_launch.hpp"

namespace harness::cli {

class LauncherExecutor final : public CaseExecutor {
 public:
  // Sweeps segments stale runs left behind. With `warn_shared_cores`, a case with more ranks
  // than cores gets a warning (its latencies include time slicing). A case whose `impl` names
  // an MPI runs on the one of `mpis` spelt so (mpi/mpi_launch.hpp), else on the reference.
  LauncherExecutor(const RunArgs& args, const launcher::Topology& topology, bool warn_shared_cores,
                   std::vector<mpi::MpiLaunch> mpis = {});
  Executed execute(const suite::CaseSpec& spec) override;
  void on_figures(Figures f) override { options_.on_figures = std::move(f); }

 private:
  launcher::LaunchOptions options_;
  std::vector<mpi::MpiLaunch> mpis_;
  const launcher::Topology& topology_;
  bool warn_shared_cores_;
};

}  // namespace harness::cli
