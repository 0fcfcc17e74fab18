#include "mpi/mpi_rank.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "launcher/mpi_launch.hpp"

namespace harness::mpi {
namespace {

int g_signal_fd = -1;

// The rank as the launcher assigned it, before MPI_Init: hydra's PMI, Open MPI's, PMIx's.
int rank_from_environment() {
  for (const char* name : {"PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "MPI_LOCALRANKID"}) {
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
  const int fd = launcher::connect_control_socket(sock);
  if (fd < 0) {
    std::fprintf(stderr, "rmabench MPI worker: cannot connect to %s: %s\n", sock,
                 std::strerror(errno));
    return std::nullopt;
  }
  link.ctrl = new launcher::ControlChannel(fd);
  nlohmann::json hello = {{"t", "hello"}, {"rank", link.rank}, {"pid", ::getpid()}};
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

}  // namespace harness::mpi
