// external_launch.hpp — ranks that another program's launcher starts instead of this
// process's fork (an MPI library's mpiexec or mpirun: mpi/mpi_launch.hpp), as the case watcher
// (case_watcher.hpp) sees them: a launcher program, a command line per case, a reason to skip.
// The ranks cannot inherit the parent's descriptors through such a launcher, so each connects
// back to a control socket named in its environment (control_socket.hpp: an abstract Unix
// socket, or TCP when the ranks may run on other hosts); what the launcher reports of ranks
// that ended silently, and what they left in /dev/shm, are read here too.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "launcher/control_socket.hpp"
#include "suite/case_spec.hpp"

namespace harness::launcher {

class ExternalLaunch {
 public:
  virtual ~ExternalLaunch() = default;
  // The launcher program's path; its file name labels the ranks' binding and the report.
  virtual std::string program() const = 0;
  // Why a case cannot run this way ("" when it can): it is then a skip with that reason.
  virtual std::string skip_reason(const suite::CaseSpec& spec) const = 0;
  // The launcher's command line for one case; every rank's environment gets `harness_env`
  // (the control socket's name, the size, the parent's pid) first.
  virtual std::vector<std::string> command(
      const suite::CaseSpec& spec,
      const std::vector<std::pair<std::string, std::string>>& harness_env) const = 0;
  // Where the ranks reach the parent from: the parent's network namespace (the default), or
  // other hosts (TCP on the address this names).
  virtual ControlReach control_reach() const { return {}; }
  // The signal that asks the launcher to end its job itself before it is killed (srun passes
  // it to every task of the step and tells Slurm), or 0: killed at once.
  virtual int stop_signal() const { return 0; }

 protected:
  ExternalLaunch() = default;
  ExternalLaunch(const ExternalLaunch&) = default;
  ExternalLaunch& operator=(const ExternalLaunch&) = default;
};

// What an MPI launcher's own report says of ranks that ended without telling us how: hydra's
// "PID n RUNNING AT host / EXIT CODE: c" (by pid), Open MPI's "Process name: [[job,1],rank]
// ... Exit code: c" and srun's "srun: error: node: task r: Exited with exit code c" (by
// rank). A hydra code equal to the number of the signal its exit string names ("EXIT
// STRING: Hangup (signal 1)") is left out: once its cleanup has signalled the job, hydra may
// give that number as a pid's code (seen in CI for a rank that had called exit(3)), so it
// says nothing certain about the rank.
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

}  // namespace harness::launcher
