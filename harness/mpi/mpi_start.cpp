// mpi_start.cpp — which way an MPI run's cases start (see the header): the one place that
// knows every Start module, as Hydra's launcher registry does.
#include "mpi/mpi_start.hpp"

#include <cstdlib>

#include "mpi/mpi_hosts.hpp"
#include "mpi/mpi_launch.hpp"
#include "mpi/mpi_srun.hpp"
#include "suite/manifest.hpp"

namespace harness::mpi {

std::shared_ptr<const Start> choose_start(const MpiLaunch& mpi, const StartOptions& o) {
  if (!o.hosts.empty() && !o.hostfile.empty())
    throw suite::UsageError("--mpi-hosts and --mpi-hostfile: give one of them");
  const bool hosts = !o.hosts.empty() || !o.hostfile.empty();
  if (!hosts && !o.rsh.empty())
    throw suite::UsageError("--mpi-rsh needs --mpi-hosts or --mpi-hostfile");
  if (o.start == "srun" && hosts)
    throw suite::UsageError("--mpi-hosts: under --mpi-start srun the allocation places the ranks");
  // Inside an allocation (SLURM_JOB_ID) srun is the cluster's way of starting ranks, unless
  // the run names hosts or the launcher itself.
  const bool in_slurm = std::getenv("SLURM_JOB_ID") != nullptr;
  if (o.start == "srun" || (o.start == "auto" && !hosts && in_slurm)) return srun_start(mpi);
  if (!hosts) return local_start();
  const bool from_file = !o.hostfile.empty();
  return hosts_start(
      mpi, plan_hosts(from_file ? read_hostfile(o.hostfile) : o.hosts,
                      from_file ? "--mpi-hostfile " + o.hostfile : "--mpi-hosts", o.map, o.rsh));
}

}  // namespace harness::mpi
