// starter_fork.cpp — ranks forked by this process: each the same executable (`rmabench
// __worker`) in the case's process group, with its control channel on fd 3 and its bootstrap
// socket on fd 4, bound to a core when the case asks for it. Its ends are its exits as the
// parent of every rank sees them.
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "launcher/limits.hpp"
#include "launcher/rank_starter.hpp"
#include "launcher/spawn.hpp"

namespace harness::launcher {
namespace {

std::pair<Fd, Fd> make_socketpair() {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw LaunchError(std::string("socketpair: ") + std::strerror(errno));
  // The child's end is moved above the descriptors it will be given (3 and 4), so that
  // dup2 onto them always makes a fresh, inheritable descriptor.
  int high = ::fcntl(sv[1], F_DUPFD_CLOEXEC, 10);
  ::close(sv[1]);
  if (high < 0) throw LaunchError(std::string("fcntl: ") + std::strerror(errno));
  ::fcntl(sv[0], F_SETFL, ::fcntl(sv[0], F_GETFL) | O_NONBLOCK);
  return {Fd(sv[0]), Fd(high)};
}

// The rank_exec prefix with {rank} filled in, then the worker's own command line.
std::vector<std::string> rank_command(const LaunchOptions& opt, int rank) {
  std::vector<std::string> words;
  std::istringstream prefix(opt.rank_exec);
  for (std::string w; prefix >> w;) {
    for (auto at = w.find("{rank}"); at != std::string::npos; at = w.find("{rank}"))
      w.replace(at, 6, std::to_string(rank));
    words.push_back(std::move(w));
  }
  words.push_back(opt.self_exe);
  words.emplace_back("__worker");
  return words;
}

void record_status(Rank& r, const siginfo_t& info) {
  if (info.si_code == CLD_EXITED)
    r.exit_code = info.si_status;
  else
    r.exit_signal = info.si_status;
}

class ForkStarter final : public RankStarter {
 public:
  explicit ForkStarter(const LaunchOptions& opt) : opt_(opt) {}

  void start(CaseHost& host) override {
    host_ = &host;
    const suite::CaseSpec& spec = host.spec();
    ensure_limits_for(spec.ranks);
    const bool bind =
        spec.bind == suite::Bind::core ||
        (spec.bind == suite::Bind::auto_ && opt_.topology && spec.ranks <= opt_.topology->cores());
    for (int r = 0; r < spec.ranks; ++r) host.ranks().push_back(spawn(r, spec.ranks, bind));
  }

  void on_exit(Rank& r) override {
    siginfo_t info{};
    if (::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(r.pidfd.fd), &info,
                 WEXITED | WNOHANG) != 0 ||
        info.si_pid == 0)
      return;
    r.exited = true;
    record_status(r, info);
    // Drain whatever the rank wrote before it went.
    if (r.ctrl_open) host_->read_control(r);
  }

  void stop(bool) override {
    if (!host_) return;
    if (pgid_ > 0) ::kill(-pgid_, SIGKILL);
    for (auto& r : host_->ranks()) {
      if (r.exited || r.pid <= 0) continue;
      siginfo_t info{};
      if (::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(r.pidfd.fd), &info, WEXITED) ==
          0) {
        r.exited = true;
        r.killed = true;
        record_status(r, info);
      }
    }
    pgid_ = 0;
  }

 private:
  Rank spawn(int r, int size, bool bind) {
    Rank rk;
    rk.rank = r;
    auto [ctrl_parent, ctrl_child] = make_socketpair();
    auto [kv_parent, kv_child] = make_socketpair();
    std::vector<std::string> env = rank_environment(r, size);
    SpawnSpec sp;
    sp.argv = rank_command(opt_, r);
    sp.env = &env;
    sp.process_group = pgid_;
    sp.search_path = true;
    sp.dup2 = {{ctrl_child.fd, 3}, {kv_child.fd, 4}};
    pid_t pid = -1;
    if (const int rc = spawn_process(sp, pid); rc != 0) throw LaunchError(spawn_error(sp, rc));
    if (pgid_ == 0) pgid_ = pid;
    rk.pid = pid;
    rk.pidfd = Fd(pidfd_open(pid));
    if (rk.pidfd.fd < 0) throw LaunchError(std::string("pidfd_open: ") + std::strerror(errno));
    rk.ctrl = std::make_unique<ControlChannel>(ctrl_parent.release());
    rk.kv = std::move(kv_parent);
    host_->kv().attach(r, rk.kv.fd);
    if (bind) {
      try {
        rk.binding = opt_.topology->bind_to_core(pid, r);
      } catch (const std::exception& e) {
        rk.binding = std::string("none (") + e.what() + ")";
      }
    }
    return rk;
  }

  const LaunchOptions& opt_;
  CaseHost* host_ = nullptr;
  pid_t pgid_ = 0;  // the case's process group: its first rank's pid
};

}  // namespace

std::unique_ptr<RankStarter> fork_starter(const LaunchOptions& options) {
  return std::make_unique<ForkStarter>(options);
}

}  // namespace harness::launcher
