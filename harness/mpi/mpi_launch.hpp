// mpi_launch.hpp — running a case on an MPI library (`--impl mpich|openmpi|<own>`): which
// built MPI an `--impl` spelling names, what a case becomes on it (progress modes mapped, or
// a skip with the reason), and the launcher command line that starts its ranks.
//
// Each case is one launch of the MPI's own launcher (mpiexec of hydra, Open MPI's mpirun) in a
// process group of its own, running the MPI's worker executable; or of srun inside a Slurm
// allocation (how: mpi_start.hpp). The ranks cannot inherit the
// parent's descriptors through a launcher, so each connects back to a Unix socket whose name
// travels in the environment (RMABENCH_CONTROL) and says hello with its rank and pid; from
// then on the control channel is the same as on the fork path (launcher.hpp). To the launcher
// an MPI is one launcher::ExternalLaunch (launcher/external_launch.hpp): it knows no MPI.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "launcher/external_launch.hpp"
#include "mpi/mpi_start.hpp"
#include "suite/case_spec.hpp"
#include "suite/manifest.hpp"

namespace harness::mpi {

struct MpiLaunch final : launcher::ExternalLaunch {
  std::string spelling;           // as given: "openmpi:osc=sm"; what case ids carry
  std::string name;               // the catalog name: "openmpi"
  std::string launcher;           // path of mpiexec / mpirun
  std::string launcher_kind;      // hydra | openmpi | generic
  std::string worker;             // absolute path of the worker executable
  std::vector<std::string> args;  // extra launcher words
  std::vector<std::pair<std::string, std::string>> env;  // extra rank environment
  std::shared_ptr<const Start> start = local_start();    // how its ranks start

  // launcher::ExternalLaunch: mpi_skip_reason, and the Start's command with mpi_case_env
  // after the harness's own variables.
  std::string program() const override { return start->program(*this); }
  std::string skip_reason(const suite::CaseSpec& spec) const override;
  std::vector<std::string> command(
      const suite::CaseSpec& spec,
      const std::vector<std::pair<std::string, std::string>>& harness_env) const override;
  launcher::ControlReach control_reach() const override { return start->control_reach(); }
  int stop_signal() const override { return start->stop_signal(); }
};

// The implementation an `--impl` value names, with its options: "mpich", "openmpi",
// "openmpi:osc=sm" (Open MPI's one-sided component: `--mca osc sm`), a custom MPI's name.
// `launcher_args` are --mpi-arg words (split at blanks), `env` --mpi-env NAME=VALUE pairs.
// Throws suite::UsageError naming what is wrong or why the MPI is not available.
MpiLaunch resolve_mpi(const std::string& spelling, const std::string& rmabench_dir,
                      const std::vector<std::string>& launcher_args,
                      const std::vector<std::string>& env);

// The cases of a run, retargeted to an MPI: backend and path do not apply (a case that differs
// only in them runs once), the id carries `impl=<spelling>`, and a progress mode the run did not
// ask for (`explicit_progress` false) becomes the library's default, `calls`.
std::vector<suite::CaseSpec> cases_for_mpi(const std::vector<suite::CaseSpec>& cases,
                                           const MpiLaunch& mpi, bool explicit_progress);

// For the CLI: the MPI `--impl` names (nullopt for "ref"), its worker found next to the
// running executable; throws suite::UsageError as resolve_mpi does.
// `start` says how its cases start (choose_start).
std::optional<MpiLaunch> mpi_for_run(const std::string& impl,
                                     const std::vector<std::string>& launcher_args,
                                     const std::vector<std::string>& env,
                                     const StartOptions& start = {});
// Retargets an expansion's cases and exclusions (cases_for_mpi).
void retarget(suite::Expansion& ex, const MpiLaunch& mpi, bool explicit_progress);
// What a report's context records of the MPI run: spelling, launcher, its arguments, the
// ranks' environment, how they start (hosts, srun).
nlohmann::json mpi_context(const MpiLaunch& mpi);

// Why a case cannot run on this MPI ("" when it can): a progress mode the library lacks.
std::string mpi_skip_reason(const MpiLaunch& mpi, const suite::CaseSpec& spec);

// The environment a case's ranks get beyond the launcher's: the progress mode's variables,
// then the run's own (--mpi-env).
std::vector<std::pair<std::string, std::string>> mpi_case_env(const MpiLaunch& mpi,
                                                              const suite::CaseSpec& spec);

// The launcher's command line for one case:
// `launcher [kind's flags] -n N [placement] [env] [args] worker`; `placement` are the words
// that put the ranks on hosts (mpi_hosts.cpp).
std::vector<std::string> mpi_command(const MpiLaunch& mpi, int ranks,
                                     const std::vector<std::pair<std::string, std::string>>& env,
                                     const std::vector<std::string>& placement = {});

}  // namespace harness::mpi
