// pmix_agent.cpp — a task's agent (pmix_agent.hpp): its ranks' start on sockets to rank 0,
// their reaping, and the loop of a task other than 0.
#include "launcher/pmix_agent.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "launcher/control_socket.hpp"
#include "launcher/launcher.hpp"
#include "launcher/spawn.hpp"

namespace harness::launcher {
namespace {

// How long a rank may take to reach rank 0's endpoint before its start fails.
constexpr auto kConnectLimit = std::chrono::seconds(20);

// A connection to rank 0, moved above the descriptors the rank gets (3 and 4) so that dup2
// onto them always makes a fresh, inheritable descriptor.
Fd connect_high(const std::string& endpoint) {
  std::string error;
  const int fd = connect_control(endpoint, kConnectLimit, &error);
  if (fd < 0) throw LaunchError("cannot reach rank 0 at " + endpoint + ": " + error);
  const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
  ::close(fd);
  if (high < 0) throw LaunchError(std::string("fcntl: ") + std::strerror(errno));
  return Fd(high);
}

void write_all(int fd, const std::string& text) {
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw LaunchError(std::string("bootstrap socket: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

RankAgent::RankAgent(std::string self_exe, std::string endpoint, Emit emit)
    : self_exe_(std::move(self_exe)), endpoint_(std::move(endpoint)), emit_(std::move(emit)) {}

RankAgent::~RankAgent() {
  for (auto& w : workers_) ::kill(-w.pid, SIGKILL);
  for (auto& w : workers_) ::waitpid(w.pid, nullptr, 0);
}

void RankAgent::handle(const Message& m) {
  if (const auto* start_rank = std::get_if<StartRank>(&m)) {
    try {
      start(*start_rank);
    } catch (const LaunchError& e) {
      emit_(RankExited{start_rank->rank, 0, 0, e.what()});
    }
  } else if (const auto* stop_rank = std::get_if<StopRank>(&m)) {
    stop(stop_rank->rank);
  } else if (const auto* sweep = std::get_if<Sweep>(&m)) {
    sweep_case_segments(sweep->prefix);
  }
}

void RankAgent::start(const StartRank& m) {
  Fd ctrl = connect_high(endpoint_);
  Fd kv = connect_high(endpoint_);
  write_all(kv.fd, bootstrap_greeting(m.token, m.rank) + "\n");
  std::vector<std::string> env = rank_environment(m.rank, m.size);
  env.push_back("RMABENCH_TOKEN=" + m.token);
  SpawnSpec sp;
  sp.argv = {self_exe_, "__worker"};
  sp.env = &env;
  sp.dup2 = {{ctrl.fd, 3}, {kv.fd, 4}};
  pid_t pid = -1;
  if (const int rc = spawn_process(sp, pid); rc != 0) throw LaunchError(spawn_error(sp, rc));
  Fd pidfd(pidfd_open(pid));
  if (pidfd.fd < 0) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    throw LaunchError(std::string("pidfd_open: ") + std::strerror(errno));
  }
  workers_.push_back({m.rank, pid, std::move(pidfd)});
}

void RankAgent::stop(int rank) {
  for (std::size_t i = 0; i < workers_.size(); ++i)
    if (workers_[i].rank == rank) {
      ::kill(-workers_[i].pid, SIGKILL);  // the rank leads a process group of its own
      reap(i, true);
      return;
    }
}

void RankAgent::add_polls(PollSet& polls) {
  for (const auto& w : workers_)
    polls.add(w.pidfd.fd, PollSet::Pass::exits, [this, rank = w.rank] {
      for (std::size_t i = 0; i < workers_.size(); ++i)
        if (workers_[i].rank == rank) return reap(i, false);
    });
}

// Reports how worker i ended, once it has; `wait`: until it has.
void RankAgent::reap(std::size_t i, bool wait) {
  siginfo_t info{};
  const int flags = WEXITED | (wait ? 0 : WNOHANG);
  int rc;
  while ((rc = ::waitid(P_PID, static_cast<id_t>(workers_[i].pid), &info, flags)) != 0 &&
         errno == EINTR) {
  }
  if (rc == 0 && info.si_pid == 0) return;  // still running
  RankExited ended{workers_[i].rank, 0, 0, ""};
  // Not ours to wait for any more: dropped and reported, or its pidfd would stay readable and
  // the agent's loop would spin on it.
  if (rc != 0)
    ended.error = std::string("waitid: ") + std::strerror(errno);
  else if (info.si_code == CLD_EXITED)
    ended.exit_code = info.si_status;
  else
    ended.signal = info.si_status;
  workers_.erase(workers_.begin() + static_cast<std::ptrdiff_t>(i));
  emit_(ended);
}

int serve_as_agent(ControlChannel& channel, RankAgent& agent) {
  bool open = true;
  while (open) {
    PollSet polls;
    polls.add(channel.fd(), PollSet::Pass::messages, [&] {
      open = channel.read_available();
      while (auto m = channel.next()) {
        if (std::holds_alternative<Quit>(*m)) {
          open = false;
          return;
        }
        agent.handle(*m);
      }
    });
    agent.add_polls(polls);
    polls.wait(std::chrono::seconds(1));
  }
  return 0;
}

}  // namespace harness::launcher
