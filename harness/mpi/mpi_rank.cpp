// mpi_rank.cpp — the rank side of a case on an MPI library (see the header). No <mpi.h>:
// built once for every MPI; the MPI calls are mpi_impl.hpp's, linked per MPI.
#include "mpi/mpi_rank.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <string>
#include <thread>

#include "launcher/control_socket.hpp"
#include "launcher/host_identity.hpp"
#include "mpi/mpi_impl.hpp"
#include "worker/bench_loop.hpp"

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
  // Async-signal-safe: a preformatted line, one write, then the default action.
  char line[48];
  const char head[] = "{\"t\":\"signal\",\"signal\":";
  std::size_t n = sizeof head - 1;
  std::memcpy(line, head, n);
  if (sig >= 10) line[n++] = static_cast<char>('0' + sig / 10);
  line[n++] = static_cast<char>('0' + sig % 10);
  line[n++] = '}';
  line[n++] = '\n';
  if (g_signal_fd >= 0) (void)!::write(g_signal_fd, line, n);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

[[noreturn]] void wait_to_be_stopped() {
  for (;;) ::pause();
}

// The control thread: the parent's questions while the main thread runs or is blocked.
void answer_parent(launcher::ControlChannel* ctrl, worker::StateBoard* board, int rank) {
  std::thread([ctrl, board, rank] {
    while (auto m = ctrl->receive()) {
      const std::string t = m->value("t", "");
      if (t == "state?") ctrl->send(board->snapshot(rank));
      if (t == "stop_compute")
        worker::compute_stop_batch().store(m->value("batch", std::uint64_t{0}),
                                           std::memory_order_release);
    }
    ::_exit(72);  // the parent closed the channel: nobody is left to report to
  }).detach();
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
    std::fprintf(stderr, "rmabench MPI worker (rank %d): cannot reach the parent: %s\n",
                 link.rank, why.c_str());
    return std::nullopt;
  }
  link.ctrl = new launcher::ControlChannel(fd);
  const char* token = std::getenv("RMABENCH_TOKEN");
  nlohmann::json hello = {{"t", "hello"},
                          {"rank", link.rank},
                          {"pid", ::getpid()},
                          {"token", token ? token : ""}};
  launcher::put_host(hello, launcher::this_host());
  if (!impl.empty()) hello["impl"] = impl;
  link.ctrl->send(hello);
  auto msg = link.ctrl->receive();
  if (!msg || msg->value("t", "") != "case") return std::nullopt;
  link.spec = suite::case_from_json(*msg);
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
  answer_parent(ctrl, board, rank);

  MpiOptions options;
  // MPICH's asynchronous progress thread (MPIR_CVAR_ASYNC_PROGRESS, set by the parent for
  // progress=async) needs MPI_THREAD_MULTIPLE.
  options.thread_multiple = link->spec.progress == "async";
  options.osc = osc;
  auto made = make_mpi_implementation(options);
  if (!made) {
    ctrl->send({{"t", "result"},
                {"rank", rank},
                {"status", "error"},
                {"early", true},
                {"impl", impl_name},
                {"failures", {{{"where", "MPI_Init"}, {"message", made.status().to_string()}}}}});
    wait_to_be_stopped();
  }
  report_fatal_signals(ctrl->fd());
  impl::Implementation& impl = *made.value();
  board->set_phase("runtime");
  nlohmann::json result = run(impl, *link, *board);
  result["impl"] = impl.name();
  const bool early = result.value("early", false);
  ctrl->send(result);
  if (early) wait_to_be_stopped();
  board->detach();
  if (rma::Status s = finalize_mpi(impl); !s)
    ctrl->send({{"t", "log"}, {"text", "MPI_Finalize: " + s.to_string()}});
  ctrl->send({{"t", "bye"}});
  ::_exit(0);
}

}  // namespace harness::mpi
