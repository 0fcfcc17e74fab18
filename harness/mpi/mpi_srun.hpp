// mpi_srun.hpp — an MPI library's ranks started by srun inside a Slurm allocation: one job
// step per case (`srun --mpi=pmix|pmi2 -n N --kill-on-bad-exit=1 worker`), the library
// bootstrapping through Slurm's PMI plugin instead of its own launcher; the ranks' control
// channel is TCP, since the step may put them on any node of the allocation. At a deadline
// srun is sent SIGTERM first: it ends the step on every node and tells Slurm.
#pragma once

#include <memory>

#include "mpi/mpi_start.hpp"

namespace harness::mpi {

// Slurm's PMI plugin for the library (by launcher kind): Open MPI's PMIx, MPICH's PMI-2.
std::string srun_mpi_plugin(const std::string& launcher_kind);

// Throws suite::UsageError when srun is not on PATH or an --mpi-arg is not a `--mca NAME
// VALUE` (srun does not take the library launcher's words; --mca becomes OMPI_MCA_NAME).
std::shared_ptr<const Start> srun_start(const MpiLaunch& mpi);

}  // namespace harness::mpi
