// mpi_launch.hpp — running a case on an MPI library (`--impl mpich|openmpi|<own>`): which
// built MPI an `--impl` spelling names, what a case becomes on it (progress modes mapped, or
// a skip with the reason), and the launcher command line that starts its ranks.
//
// Each case is one launch of the MPI's own launcher (mpiexec of hydra, Open MPI's mpirun) in a
// process group of its own, running the MPI's worker executable. The ranks cannot inherit the
// parent's descriptors through a launcher, so each connects back to a Unix socket whose name
// travels in the environment (RMABENCH_CONTROL) and says hello with its rank and pid; from
// then on the control channel is the same as on the fork path (launcher.hpp).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "suite/case_spec.hpp"
#include "suite/manifest.hpp"

namespace harness::launcher {

struct MpiLaunch {
  std::string spelling;           // as given: "openmpi:osc=sm"; what case ids carry
  std::string name;               // the catalog name: "openmpi"
  std::string launcher;           // path of mpiexec / mpirun
  std::string launcher_kind;      // hydra | openmpi | generic
  std::string worker;             // absolute path of the worker executable
  std::vector<std::string> args;  // extra launcher words
  std::vector<std::pair<std::string, std::string>> env;  // extra rank environment
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
std::optional<MpiLaunch> mpi_for_run(const std::string& impl,
                                     const std::vector<std::string>& launcher_args,
                                     const std::vector<std::string>& env);
// Retargets an expansion's cases and exclusions (cases_for_mpi).
void retarget(suite::Expansion& ex, const MpiLaunch& mpi, bool explicit_progress);
// What a report's context records of the MPI run: spelling, launcher, its arguments, the
// ranks' environment.
nlohmann::json mpi_context(const MpiLaunch& mpi);

// Why a case cannot run on this MPI ("" when it can): a progress mode the library lacks.
std::string mpi_skip_reason(const MpiLaunch& mpi, const suite::CaseSpec& spec);

// The environment a case's ranks get beyond the launcher's: the progress mode's variables,
// then the run's own (--mpi-env).
std::vector<std::pair<std::string, std::string>> mpi_case_env(const MpiLaunch& mpi,
                                                              const suite::CaseSpec& spec);

// The launcher's command line for one case: `launcher [kind's flags] -n N [env] [args] worker`.
std::vector<std::string> mpi_command(const MpiLaunch& mpi, int ranks,
                                     const std::vector<std::pair<std::string, std::string>>& env);

// What an MPI launcher's own report says of ranks that ended without telling us how: hydra's
// "PID n RUNNING AT host / EXIT CODE: c" (by pid), Open MPI's "Process name: [[job,1],rank]
// ... Exit code: c" (by rank). A hydra code equal to the number of the signal its exit string
// names ("EXIT STRING: Hangup (signal 1)") is left out: once its cleanup has signalled the
// job, hydra may give that number as a pid's code (seen in CI for a rank that had called
// exit(3)), so it says nothing certain about the rank.
struct LauncherReport {
  std::vector<std::pair<int, int>> code_by_pid;   // (pid, code)
  std::vector<std::pair<int, int>> code_by_rank;  // (rank, code)
};
LauncherReport parse_launcher_report(const std::string& text);

// The names in /dev/shm now, and those some live process has mapped or open (from /proc):
// what an MPI left behind is a new name in neither.
std::set<std::string> shm_entries();
std::set<std::string> shm_in_use();
// "rmabench.<pid>.…": the reference's own segments, each swept by its run by prefix; another
// run's are never an MPI's leftovers.
bool is_reference_segment(const std::string& name);

// The control socket: an abstract Unix socket (no file to leave behind), "@name" in the
// environment. listen returns the listening descriptor (non-blocking, close-on-exec).
int listen_control_socket(const std::string& at_name);
// The rank's side: a connected descriptor, or -1 with errno.
int connect_control_socket(const std::string& at_name);

}  // namespace harness::launcher
