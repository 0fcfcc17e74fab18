// mpi_rank.cpp — the rank side of a case on an MPI library (see the header). No <mpi.h>:
// built once for every MPI; the MPI calls are mpi_impl.hpp's, linked per MPI.
#include "mpi/mpi_rank.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "launcher/control_socket.hpp"
#include "launcher/host_identity.hpp"
#include "mpi/mpi_impl.hpp"
#include "worker/rank_life.hpp"

namespace harness::mpi {
namespace {

int g_signal_fd = -1;

// How long a rank tries to reach its parent before it gives up and exits: the launcher has
// started it by then, so the parent is listening unless it is gone or unreachable.
constexpr std::chrono::seconds kConnectLimit{15};

// The rank as the launcher assigned it, before MPI_Init: hydra's PMI, Open MPI's, PMIx's,
// Slurm's (srun --mpi=pmi2 or pmix).
int rank_from_environment() {
  for (const char* name :
       {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID", "MPI_LOCALRANKID"}) {
    if (const char* v = std::getenv(name)) return std::atoi(v);
  }
  return -1;
}

void on_fatal_signal(int sig) {
  // Async-signal-safe: the codec's line built in a buffer, one write, then the default action.
  char line[64];
  const std::size_t n = launcher::signal_line(sig, line);
  if (g_signal_fd >= 0) (void)!::write(g_signal_fd, line, n);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

std::optional<RankLink> connect_to_parent(const std::string& impl) {
  const char* sock = std::getenv("RMABENCH_CONTROL");
  const char* size = std::getenv("RMABENCH_SIZE");
  if (!sock || !size) {
    std::fprintf(stderr,
                 "rmabench MPI worker: started without RMABENCH_CONTROL (rmabench run "
                 "--impl starts it through the MPI's launcher)\n");
    return std::nullopt;
  }
  RankLink link;
  link.rank = rank_from_environment();
  link.size = std::atoi(size);
  std::string why;
  const int fd = launcher::connect_control(sock, kConnectLimit, &why);
  if (fd < 0) {
    std::fprintf(stderr, "rmabench MPI worker (rank %d): cannot reach the parent: %s\n", link.rank,
                 why.c_str());
    return std::nullopt;
  }
  link.ctrl = new launcher::ControlChannel(fd);
  const char* token = std::getenv("RMABENCH_TOKEN");
  auto spec = worker::greet(*link.ctrl, launcher::Hello{.rank = link.rank,
                                                        .pid = ::getpid(),
                                                        .token = token ? token : "",
                                                        .impl = impl,
                                                        .host = launcher::this_host()});
  if (!spec) return std::nullopt;
  link.spec = std::move(*spec);
  return link;
}

void report_fatal_signals(int fd) {
  g_signal_fd = fd;
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sa.sa_flags = SA_RESETHAND | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::sigaction(s, &sa, nullptr);
}

int run_rank(const RankRun& run) {
  // The launcher's proxy is this process's parent: die with it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Open MPI's one-sided component, as `--mca osc NAME` set it for the ranks.
  std::string osc;
  if (const char* o = std::getenv("OMPI_MCA_osc")) osc = o;
  const std::string impl_name = mpi_impl_name(osc);
  auto link = connect_to_parent(impl_name);
  if (!link) return 70;
  launcher::ControlChannel* ctrl = link->ctrl;
  const int rank = link->rank;

  auto* board = new worker::StateBoard;  // lives until _exit
  board->set_phase("MPI_Init");
  worker::answer_parent(ctrl, board, rank);

  MpiOptions options;
  // MPICH's asynchronous progress thread (MPIR_CVAR_ASYNC_PROGRESS, set by the parent for
  // progress=async) needs MPI_THREAD_MULTIPLE.
  options.thread_multiple = link->spec.progress == rma::ProgressMode::async;
  options.osc = osc;
  auto made = make_mpi_implementation(options);
  if (!made)
    worker::report_early_error(*ctrl, rank, "MPI_Init", made.status().to_string(), impl_name);
  report_fatal_signals(ctrl->fd());
  impl::Implementation& impl = *made.value();
  board->set_phase("runtime");
  worker::send_result(*ctrl, run(impl, *link, *board), impl.name());
  board->detach();
  if (rma::Status s = finalize_mpi(impl); !s)
    ctrl->send(launcher::Log{"MPI_Finalize: " + s.to_string()});
  ctrl->send(launcher::Bye{});
  ::_exit(0);
}

}  // namespace harness::mpi
