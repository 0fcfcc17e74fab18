// launcher.hpp — runs one case: spawns its rank processes, serves them, watches them against
// a deadline, and turns what happened into a CaseResult.
//
// Each rank is this same executable (`rmabench __worker`) in a process group of the case,
// with a control channel (fd 3) and a bootstrap socket (fd 4). The launcher answers every
// message while it waits. On the deadline it asks every rank for its state and reports
// `deadlock` when all are blocked inside a library call, else `timeout`; a rank that exits
// early or dies by a signal is a `crash`. Afterwards the process group is killed and every
// shared segment the case created (all named after its prefix) is removed, whatever happened.
//
// With `external` set, another program's launcher starts the ranks instead (an MPI library's:
// external_launch.hpp, mpi/mpi_launch.hpp): one launch of it per case, ranks connecting back
// to a control socket; with `pmix`, the agents of a PMIx job's tasks start them
// (pmix_job.hpp). Watching, diagnosis and the result are the same. Each way of starting
// ranks is a RankStarter (rank_starter.hpp) driven by the one case watcher (case_watcher.hpp),
// whose verdict comes from the one rule (verdict.hpp).
#pragma once

#include <functional>
#include <string>

#include "launcher/external_launch.hpp"
#include "launcher/topology.hpp"
#include "reports/model.hpp"
#include "suite/case_spec.hpp"

namespace harness::launcher {

class PmixJob;

struct LaunchOptions {
  std::string self_exe;  // the rmabench executable the ranks run
  const Topology* topology = nullptr;
  bool verbose = false;  // echo rank logs to stderr as they arrive
  // Words put before the rank's own command line, "{rank}" replaced by its rank (e.g.
  // "ip netns exec host{rank}": every rank in a network namespace of its own, as if on
  // hosts of their own). The prefix must exec the command, not fork it: the launcher
  // watches the pid it started.
  // Split at blanks; no quoting.
  std::string rank_exec;
  // Ranks started by another program's launcher (an MPI library under test, --impl:
  // mpi/mpi_launch.hpp), or null for the reference's own fork.
  const ExternalLaunch* external = nullptr;
  // Ranks started by the agents of a PMIx job's tasks (pmix_job.hpp), this process being
  // its task 0; null when not under such a launcher.
  PmixJob* pmix = nullptr;
  // Called with each batch of benchmark entries the moment the origin rank sends it (they
  // are also in the CaseOutcome): the run records them before the case ends.
  std::function<void(const nlohmann::json& entries)> on_figures;
};

// Thrown when the case cannot be started at all (no fork, no sockets): the run stops.
struct LaunchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A case's result, and the Google Benchmark entries its origin rank reported (bench mode):
// every one it sent, also when the case did not end well (a sweep stopped halfway keeps
// the rows it finished).
struct CaseOutcome {
  reports::CaseResult result;
  nlohmann::json benchmarks = nlohmann::json::array();
};

CaseOutcome run_case(const suite::CaseSpec& spec, const LaunchOptions& options);

// Removes this host's /dev/shm entries named after a case's prefix (CaseSpec::name_prefix).
void sweep_case_segments(const std::string& name_prefix);

// Removes /dev/shm entries left by earlier runs whose parent process no longer exists.
void sweep_stale_segments();

// Set by a SIGINT/SIGTERM handler: the running case is stopped and reported as interrupted.
void request_stop();
bool stop_requested();

}  // namespace harness::launcher
