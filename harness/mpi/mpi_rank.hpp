// mpi_rank.hpp — the rank side of a case on an MPI library: before MPI_Init, connect to the
// parent's control socket (RMABENCH_CONTROL, launcher/mpi_launch.hpp), say hello with the rank
// the MPI launcher assigned and this pid, and receive the case; after MPI_Init, report a fatal
// signal to the parent before dying of it (the launcher may turn it into an exit code).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "launcher/control.hpp"
#include "suite/case_spec.hpp"

namespace harness::mpi {

struct RankLink {
  launcher::ControlChannel* ctrl = nullptr;  // lives until the process ends
  int rank = -1;
  int size = 0;
  suite::CaseSpec spec;
};

// nullopt (and a line on stderr) when the rank was not started by rmabench's MPI path.
// `impl` ("mpich 4.0.2", "openmpi 4.1.4 osc=sm"; "" if unknown) travels in the hello, so that
// the parent can name the library with its version even when no rank gets to send a result.
std::optional<RankLink> connect_to_parent(const std::string& impl = "");

// SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT: a {"t":"signal"} line on `fd`, then the signal's
// default action. Installed after MPI_Init, so that it replaces the library's own handlers.
void report_fatal_signals(int fd);

}  // namespace harness::mpi
