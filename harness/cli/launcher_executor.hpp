// launcher_executor.hpp — carrying out a case the usual way: the launcher spawns its rank
// processes, watches them and reports (launcher/launcher.hpp). `run` and `bench` use it.
#pragma once

#include "cli/pipeline.hpp"
#include "launcher/launcher.hpp"
#include "launcher/topology.hpp"
#include "mpi/mpi_launch.hpp"

namespace harness::cli {

// The rmabench executable this process runs, which the ranks run too.
std::string self_exe();

class LauncherExecutor final : public CaseExecutor {
 public:
  // Sweeps segments stale runs left behind. With `warn_shared_cores`, a case with more ranks
  // than cores gets a warning (its latencies include time slicing). A case whose `impl` names
  // an MPI runs on the one of `mpis` spelt so (mpi/mpi_launch.hpp), else on the reference.
  // With `pmix`, this process is task 0 of a PMIx job whose agents start the ranks.
  LauncherExecutor(const RunArgs& args, const launcher::Topology& topology, bool warn_shared_cores,
                   std::vector<mpi::MpiLaunch> mpis = {}, launcher::PmixJob* pmix = nullptr);
  Executed execute(const suite::CaseSpec& spec) override;
  // A job the launcher kills (scancel, a time limit) keeps the cases that finished.
  bool writes_after_each_case() const override { return options_.pmix != nullptr; }
  void on_figures(Figures f) override { options_.on_figures = std::move(f); }

 private:
  launcher::LaunchOptions options_;
  std::vector<mpi::MpiLaunch> mpis_;
  const launcher::Topology& topology_;
  bool warn_shared_cores_;
};

}  // namespace harness::cli
