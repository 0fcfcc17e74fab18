// starter_mpi.cpp — ranks started by an MPI library's launcher (external_launch.hpp,
// mpi/mpi_launch.hpp): one launch of it per case, its output kept, its ranks connecting back
// to a control socket with the case's token. A rank is not our child: its pidfd says when it
// ended, how only through what it said itself or the launcher's report. Stopping the case
// stops the launcher's whole job; what the library left in /dev/shm is swept after it.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "launcher/host_identity.hpp"
#include "launcher/rank_starter.hpp"
#include "launcher/spawn.hpp"

namespace harness::launcher {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

// The launcher's process: ours without any RMABENCH_ variable in its environment, stdin
// from /dev/null, its output into `out`, in a process group of its own.
pid_t spawn_launcher(std::vector<std::string>& words, int out) {
  std::vector<std::string> env = environment_for_child();
  SpawnSpec sp;
  sp.argv = words;
  sp.env = &env;
  sp.stdin_null = true;
  sp.dup2 = {{out, 1}, {out, 2}};
  pid_t pid = -1;
  if (const int rc = spawn_process(sp, pid); rc != 0) throw LaunchError(spawn_error(sp, rc));
  return pid;
}

class MpiStarter final : public RankStarter {
 public:
  explicit MpiStarter(const LaunchOptions& opt) : opt_(opt), ext_(*opt.external) {}

  std::string skip_reason(const suite::CaseSpec& spec) const override {
    return ext_.skip_reason(spec);
  }
  void start(CaseHost& host) override;
  void add_polls(PollSet& polls) override;
  void on_exit(Rank& r) override;
  void stop(bool clean) override;
  void sweep() override;
  void learn_exits() override;
  void crash_order(std::vector<const Rank*>& order) const override;
  std::string how_ended(const Rank& r) const override;
  void add_report(reports::CaseResult& result) const override;

 private:
  void on_accept();
  void on_pending(std::size_t i);
  void on_launcher_output();
  void on_launcher_exit();
  void ask_launcher_to_stop();
  void reap_orphans();
  void sweep_library_segments();
  std::string launcher_name() const {
    return std::filesystem::path(ext_.program()).filename().string();
  }

  const LaunchOptions& opt_;
  const ExternalLaunch& ext_;
  CaseHost* host_ = nullptr;
  Fd listen_;
  std::vector<std::unique_ptr<ControlChannel>> pending_;
  pid_t launcher_pid_ = 0;
  pid_t pgid_ = 0;
  Fd launcher_pidfd_;
  Fd launcher_out_;
  bool launcher_exited_ = false;
  int exits_seen_ = 0;
  std::set<std::string> shm_before_;
  bool swept_ = false;
  std::string launcher_status_;
  std::string launcher_text_;
  std::string launcher_cmd_;
  std::string token_;  // what a rank's hello must carry
  std::string own_node_ = this_host().node;
};

// One launch of the MPI's launcher for the whole case; the ranks connect back.
void MpiStarter::start(CaseHost& host) {
  host_ = &host;
  const suite::CaseSpec& spec = host.spec();
  shm_before_ = shm_entries();
  // Ranks and proxies the launcher orphans are adopted here and reaped in stop(), not
  // left as zombies of whatever init the host has.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  ControlListener control = listen_control(ext_.control_reach(), spec.name_prefix + ".ctl");
  if (control.fd < 0) throw LaunchError("control socket: " + control.error);
  listen_ = Fd(control.fd);
  // A TCP endpoint is reachable by anyone on the network: a rank proves it is ours with
  // the token its environment carries.
  token_ = std::to_string(std::random_device{}()) + std::to_string(std::random_device{}());
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) throw LaunchError(std::string("pipe: ") + std::strerror(errno));
  Fd out_read(out[0]), out_write(out[1]);
  ::fcntl(out_read.fd, F_SETFL, ::fcntl(out_read.fd, F_GETFL) | O_NONBLOCK);

  std::vector<std::string> words =
      ext_.command(spec, {{"RMABENCH_CONTROL", control.endpoint},
                          {"RMABENCH_TOKEN", token_},
                          {"RMABENCH_SIZE", std::to_string(spec.ranks)},
                          {"RMABENCH_PARENT", std::to_string(::getpid())}});
  launcher_cmd_.clear();
  for (const auto& w : words) launcher_cmd_ += (launcher_cmd_.empty() ? "" : " ") + w;
  const pid_t pid = spawn_launcher(words, out_write.fd);
  launcher_pid_ = pid;
  pgid_ = pid;
  launcher_pidfd_ = Fd(pidfd_open(pid));
  if (launcher_pidfd_.fd < 0) throw LaunchError(std::string("pidfd_open: ") + std::strerror(errno));
  launcher_out_ = std::move(out_read);
  for (int r = 0; r < spec.ranks; ++r) {
    Rank rk;
    rk.rank = r;
    rk.child = false;
    rk.ctrl_open = false;
    rk.kv_open = false;
    rk.binding = "by " + launcher_name();
    host.ranks().push_back(std::move(rk));
  }
}

// The listening socket, the connections before their hello, the launcher's output and exit.
void MpiStarter::add_polls(PollSet& polls) {
  using Pass = PollSet::Pass;
  if (listen_.fd >= 0) polls.add(listen_.fd, Pass::messages, [this] { on_accept(); });
  for (std::size_t i = 0; i < pending_.size(); ++i)
    if (pending_[i]) polls.add(pending_[i]->fd(), Pass::messages, [this, i] { on_pending(i); });
  if (launcher_out_.fd >= 0)
    polls.add(launcher_out_.fd, Pass::messages, [this] { on_launcher_output(); });
  if (launcher_pidfd_.fd >= 0 && !launcher_exited_)
    polls.add(launcher_pidfd_.fd, Pass::exits, [this] { on_launcher_exit(); });
}

// A rank connected: it is known once its hello names its rank and pid.
void MpiStarter::on_accept() {
  for (;;) {
    const int fd = ::accept4(listen_.fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
    pending_.push_back(std::make_unique<ControlChannel>(fd));
  }
}

void MpiStarter::on_pending(std::size_t i) {
  auto& ch = pending_[i];
  if (!ch) return;
  const bool open = ch->read_available();
  auto m = ch->next();
  if (!m) {
    if (!open) ch.reset();
    return;
  }
  const auto* hello = std::get_if<Hello>(&*m);
  if (!hello || hello->token != token_) {
    ch.reset();  // not a rank of this case: a stray connection is no failure of it
    return;
  }
  const int r = hello->rank;
  auto& ranks = host_->ranks();
  if (r < 0 || r >= host_->spec().ranks || hello->pid <= 0 ||
      ranks[static_cast<std::size_t>(r)].ctrl) {
    host_->add_failure(r, "unexpected first control message: " + encode(*m).dump());
    ch.reset();
    return;
  }
  Rank& rk = ranks[static_cast<std::size_t>(r)];
  const HostIdentity where = hello->host;
  const auto pid = static_cast<pid_t>(hello->pid);
  rk.pid = pid;
  rk.host = host_label(where);
  rk.remote = !where.node.empty() && where.node != own_node_;
  if (!rk.remote) rk.pidfd = Fd(pidfd_open(pid));
  rk.ctrl = std::move(ch);
  rk.ctrl_open = true;
  host_->handle_message(rk, *m);
  // Whatever else arrived with the hello.
  while (auto more = rk.ctrl->next()) host_->handle_message(rk, *more);
  if (!rk.remote && rk.pidfd.fd < 0) host_->rank_ended(rk);  // gone already
  if (rk.remote && !rk.ctrl_open) host_->rank_ended(rk);
}

void MpiStarter::on_launcher_output() {
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(launcher_out_.fd, buf, sizeof buf);
    if (n <= 0) {
      if (n == 0) launcher_out_.reset();
      return;
    }
    if (opt_.verbose) std::cerr.write(buf, n);
    launcher_text_.append(buf, static_cast<std::size_t>(n));
    // Keep the tail: what a launcher says at the end is what explains a failure.
    if (launcher_text_.size() > 32768) launcher_text_.erase(0, launcher_text_.size() - 16384);
  }
}

void MpiStarter::on_launcher_exit() {
  siginfo_t info{};
  if (::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(launcher_pidfd_.fd), &info,
               WEXITED | WNOHANG) != 0 ||
      info.si_pid == 0)
    return;
  launcher_exited_ = true;
  launcher_status_ = info.si_code == CLD_EXITED
                         ? "exited with code " + std::to_string(info.si_status)
                         : "was killed by " + signal_name(info.si_status);
  if (launcher_out_.fd >= 0) on_launcher_output();
  // Ranks that never connected never will.
  for (auto& r : host_->ranks())
    if (!r.ctrl && !r.exited) {
      r.exited = true;
      r.never_connected = true;
    }
}

void MpiStarter::on_exit(Rank& r) {
  // Not ours to wait for: the pidfd said it ended; a signal it reported stays recorded.
  r.exited = true;
  r.exit_seq = ++exits_seen_;
  if (r.ctrl_open) host_->read_control(r);
  if (!r.bye && !r.exit_signal) r.exit_code = -1;  // known only to the MPI launcher
}

// The launcher's process group, then every rank we were told of (a launcher may put its
// ranks in groups of their own); waits until each is gone.
void MpiStarter::stop(bool clean) {
  if (launcher_pid_ <= 0) return;
  // After a clean end the launcher exits by itself; give it a moment to say how it ended.
  if (!launcher_exited_ && host_->all_exited() && clean) {
    const auto until = Clock::now() + std::chrono::seconds(2);
    while (!launcher_exited_ && Clock::now() < until) host_->pump(std::chrono::milliseconds(50));
  }
  auto& ranks = host_->ranks();
  // Whatever ends a rank from here on is our stop, also while the launcher tears its job
  // down (a remote rank is reached only that way).
  for (auto& r : ranks)
    if (!r.exited && (r.pidfd.fd >= 0 || r.remote)) r.killed = true;
  ask_launcher_to_stop();
  if (pgid_ > 0) ::kill(-pgid_, SIGKILL);
  for (auto& r : ranks)
    if (r.pidfd.fd >= 0) ::syscall(SYS_pidfd_send_signal, r.pidfd.fd, SIGKILL, nullptr, 0);
  if (!launcher_exited_) {
    siginfo_t info{};
    ::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(launcher_pidfd_.fd), &info, WEXITED);
    launcher_exited_ = true;
    if (launcher_status_.empty()) launcher_status_ = "was stopped";
  }
  for (auto& r : ranks) {
    if (r.pidfd.fd < 0) continue;
    pollfd p{r.pidfd.fd, POLLIN, 0};
    ::poll(&p, 1, 2000);
    r.exited = true;
  }
  reap_orphans();
  if (launcher_out_.fd >= 0) on_launcher_output();
  pgid_ = 0;
  launcher_pid_ = 0;
}

// Dead ranks whose proxy died too are orphaned to this process (the subreaper): reap them
// and whatever else of the launcher was adopted, until no rank is left even as a zombie
// (a signal to a reaped process's pidfd fails), for at most a second.
void MpiStarter::reap_orphans() {
  auto lingering = [&] {
    for (const auto& r : host_->ranks())
      if (r.pidfd.fd >= 0 && ::syscall(SYS_pidfd_send_signal, r.pidfd.fd, 0, nullptr, 0) == 0)
        return true;
    return false;
  };
  for (int i = 0; i < 50; ++i) {
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    if (!lingering()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// A launcher with a stop signal (srun) ends its job itself, on every node, and says so
// to its resource manager; it gets a few seconds before the whole group is killed.
void MpiStarter::ask_launcher_to_stop() {
  const int sig = ext_.stop_signal();
  if (sig == 0 || launcher_exited_) return;
  ::kill(launcher_pid_, sig);
  const auto until = Clock::now() + std::chrono::seconds(3);
  while (!launcher_exited_ && Clock::now() < until) host_->pump(std::chrono::milliseconds(50));
}

void MpiStarter::sweep() {
  if (swept_ || !launcher_exited_) return;
  swept_ = true;
  sweep_library_segments();
}

// What an MPI library left in /dev/shm when its ranks were killed (Open MPI's
// vader_segment.*, for one): entries that appeared during the case and that no live process
// has mapped or open — another job's live segment is never touched.
void MpiStarter::sweep_library_segments() {
  std::vector<std::string> fresh;
  for (const auto& n : shm_entries())
    if (!shm_before_.count(n) && !is_reference_segment(n)) fresh.push_back(n);
  if (fresh.empty()) return;
  // Twice, 200 ms apart: a segment another job is creating right now is mapped by then.
  std::set<std::string> unused(fresh.begin(), fresh.end());
  for (int pass = 0; pass < 2 && !unused.empty(); ++pass) {
    if (pass) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    for (const auto& n : shm_in_use()) unused.erase(n);
  }
  for (const auto& n : unused) ::unlink(("/dev/shm/" + n).c_str());
}

// The launcher's own report of a rank that ended without saying how (parse_launcher_report).
// What a rank reported itself (its signal) stays first.
void MpiStarter::learn_exits() {
  auto& ranks = host_->ranks();
  const LauncherReport rep = parse_launcher_report(launcher_text_);
  for (const auto& [pid, code] : rep.code_by_pid)
    for (auto& r : ranks)
      if (r.pid == pid && r.exit_code == -1) {
        r.exit_code = code;
        r.code_from_launcher = true;
      }
  for (const auto& [rank, code] : rep.code_by_rank) {
    const auto at = static_cast<std::size_t>(rank);
    if (at < ranks.size() && ranks[at].exit_code == -1) {
      ranks[at].exit_code = code;
      ranks[at].code_from_launcher = true;
    }
  }
}

// A rank that named its signal first: its peers are then ended by the launcher, which is a
// consequence, not the cause; then those whose code the launcher gave, then in order of exit.
void MpiStarter::crash_order(std::vector<const Rank*>& order) const {
  std::stable_sort(order.begin(), order.end(), [](const Rank* a, const Rank* b) {
    if ((a->exit_signal != 0) != (b->exit_signal != 0)) return a->exit_signal != 0;
    if (a->code_from_launcher != b->code_from_launcher) return a->code_from_launcher;
    return (a->exit_seq ? a->exit_seq : 1 << 30) < (b->exit_seq ? b->exit_seq : 1 << 30);
  });
}

std::string MpiStarter::how_ended(const Rank& r) const {
  if (r.exit_signal) return "was killed by " + signal_name(r.exit_signal);
  if (r.never_connected)
    return "never connected (" + launcher_name() + " " + launcher_status_ + ")";
  if (r.exit_code == -1)
    return "ended without a result (its exit status is known only to " + launcher_name() +
           ", which " + launcher_status_ + ")";
  if (r.code_from_launcher)
    return "exited with code " + std::to_string(r.exit_code) + " (as " + launcher_name() +
           " reports it)";
  return "exited with code " + std::to_string(r.exit_code);
}

// What the MPI launcher printed, when the case did not pass: its last lines explain a crash
// or a start that failed (the signal a rank died of, a component that did not load).
void MpiStarter::add_report(reports::CaseResult& result) const {
  if (result.status == reports::Verdict::pass || result.status == reports::Verdict::skip) return;
  std::vector<std::string> lines;
  std::istringstream in(launcher_text_);
  for (std::string l; std::getline(in, l);)
    if (!l.empty() && l.find_first_not_of("- ") != std::string::npos) lines.push_back(l);
  const std::size_t first = lines.size() > 12 ? lines.size() - 12 : 0;
  std::string text = launcher_cmd_ + " " + launcher_status_;
  for (std::size_t i = first; i < lines.size(); ++i) text += "\n" + lines[i];
  result.failures.push_back({-1, launcher_name(), text});
}

}  // namespace

std::unique_ptr<RankStarter> mpi_starter(const LaunchOptions& options) {
  return std::make_unique<MpiStarter>(options);
}

}  // namespace harness::launcher
