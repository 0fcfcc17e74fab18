// mpi_rank.hpp — the rank side of a case on an MPI library: before MPI_Init, connect to the
// parent's control socket (RMABENCH_CONTROL, launcher/external_launch.hpp), say hello with the rank
// the MPI launcher assigned and this pid, and receive the case; after MPI_Init, report a fatal
// signal to the parent before dying of it (the launcher may turn it into an exit code).
// run_rank is the one body of every MPI rank process: the worker (mpi_worker_main.cpp) and
// the launcher check's probe (mpi_launch_probe.cpp) differ only in what runs once MPI is up.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "impl/implementation.hpp"
#include "launcher/control.hpp"
#include "suite/case_spec.hpp"
#include "worker/state_board.hpp"

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

// What a rank does once MPI is up: the case's "result" message. A result with `early` set
// (the case failed before its collective end) is sent and the rank waits to be stopped,
// since its peers may never reach MPI_Finalize.
using RankRun =
    std::function<nlohmann::json(impl::Implementation&, const RankLink&, worker::StateBoard&)>;

// The whole life of an MPI rank process around `run`: die with the launcher's proxy, connect
// to the parent, answer its "state?" and "stop_compute" from a control thread, start MPI at
// the thread level the case's progress mode needs (Open MPI's one-sided component from
// OMPI_MCA_osc), then `run`, MPI_Finalize and "bye". Returns only when the rank was not
// started by rmabench (exit code 70); every other end is _exit.
int run_rank(const RankRun& run);

}  // namespace harness::mpi
