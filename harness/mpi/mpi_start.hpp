// mpi_start.hpp — the ways of starting an MPI library's ranks for a case, one small module
// each behind one interface, as Hydra's launchers are: the library's own launcher on this
// host (mpi_launch.cpp), the library's launcher across hosts (mpi_hosts.cpp: --mpi-hosts, its
// remote-start agent), and srun inside a Slurm allocation (mpi_srun.cpp). The case watcher
// sees none of them: MpiLaunch is its one launcher::ExternalLaunch and asks its Start.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "launcher/control_socket.hpp"

namespace harness::mpi {

struct MpiLaunch;
using Env = std::vector<std::pair<std::string, std::string>>;

class Start {
 public:
  virtual ~Start() = default;
  // The program started per case (its file name labels the ranks' binding and the report).
  virtual std::string program(const MpiLaunch& mpi) const = 0;
  // The command line for one case of `ranks` ranks, every rank getting `env`.
  virtual std::vector<std::string> command(const MpiLaunch& mpi, int ranks,
                                           const Env& env) const = 0;
  virtual launcher::ControlReach control_reach() const { return {}; }
  virtual int stop_signal() const { return 0; }
  // What the report's context.options.impl.start records of it.
  virtual nlohmann::json context() const = 0;

 protected:
  Start() = default;
  Start(const Start&) = default;
  Start& operator=(const Start&) = default;
};

// How a run asked its MPI cases to start (the CLI's --mpi-start, --mpi-hosts, --mpi-hostfile,
// --mpi-map, --mpi-rsh), before it is checked.
struct StartOptions {
  std::string start = "auto";      // auto | launcher | srun
  std::vector<std::string> hosts;  // --mpi-hosts, split at commas
  std::string hostfile;            // --mpi-hostfile
  std::string map = "spread";      // spread | block
  std::string rsh;                 // the launcher's remote-start agent (ssh by default)
};

// The library's own launcher on this host: the default.
std::shared_ptr<const Start> local_start();

// The Start the options name for `mpi` (whose launcher, kind and arguments are set); throws
// suite::UsageError naming the option that is wrong (an unknown host, srun outside Slurm, a
// launcher kind with no host syntax).
std::shared_ptr<const Start> choose_start(const MpiLaunch& mpi, const StartOptions& options);

}  // namespace harness::mpi
