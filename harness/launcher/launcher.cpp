#include "launcher/launcher.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "rma/kv_server.hpp"
#include "launcher/control.hpp"
#include "launcher/limits.hpp"
#include "launcher/external_launch.hpp"
#include "launcher/host_identity.hpp"
#include "reports/trace.hpp"
#include "launcher/rank_results.hpp"
#include "launcher/verdict.hpp"

extern char** environ;

namespace harness::launcher {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

std::atomic<bool> g_stop{false};
std::atomic<int> g_case_counter{0};

// How long ranks that are still running get to finish after another rank ended the case
// early (a Lua error, fail() or skip()), before they are stopped.
constexpr auto kEarlyEndGrace = std::chrono::milliseconds(300);
// How long survivors of a crash may take to report their own errors.
constexpr auto kCrashGrace = std::chrono::milliseconds(1500);
// How long ranks get to answer a state request.
constexpr auto kStateWait = std::chrono::milliseconds(1500);
constexpr auto kStateWaitCrash = std::chrono::milliseconds(300);

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(Fd&& o) noexcept : fd(std::exchange(o.fd, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    reset();
    fd = std::exchange(o.fd, -1);
    return *this;
  }
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int release() { return std::exchange(fd, -1); }
};

// glibc 2.36's <sys/pidfd.h> lacks C linkage for C++; the system call is simple enough.
int pidfd_open(pid_t pid) {
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

struct Rank {
  int rank = 0;
  pid_t pid = -1;
  // An MPI launcher's rank is not our child: its exit is seen on its pidfd, its status only
  // through what it told us (a "signal" message) or the launcher's own report.
  bool child = true;
  bool never_connected = false;
  // On another node (its hello's node key differs from ours): its pid means nothing here, so
  // its exit is the end of its control channel.
  bool remote = false;
  std::string host;  // where it ran, as its hello said (host_identity.hpp)
  int exit_seq = 0;  // order in which exits were seen: the first is likelier the cause
  bool code_from_launcher = false;  // exit_code read from the MPI launcher's report
  Fd pidfd;
  std::unique_ptr<ControlChannel> ctrl;
  Fd kv;
  bool hello = false;
  bool result = false;
  bool bye = false;
  bool exited = false;
  bool killed = false;  // stopped by the launcher, not by itself
  bool ctrl_open = true;
  bool kv_open = true;
  int exit_code = 0;
  int exit_signal = 0;
  json result_msg;
  json state_msg;
  std::string binding = "none";

  bool live() const { return !exited; }
};

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

class CaseRun {
 public:
  CaseRun(const suite::CaseSpec& spec, const LaunchOptions& opt)
      : spec_(spec), opt_(opt), kv_(spec.ranks) {
    spec_.name_prefix = "rmabench." + std::to_string(::getpid()) + "." +
                        std::to_string(g_case_counter.fetch_add(1));
  }

  ~CaseRun() {
    kill_all();
    sweep_segments();
  }

  CaseOutcome run() {
    start_ = Clock::now();
    result_ = base_result(spec_);

    if (opt_.external) {
      if (std::string why = opt_.external->skip_reason(spec_); !why.empty()) {
        result_.status = reports::Verdict::skip;
        result_.reason = why;
        CaseOutcome out;
        out.result = result_;
        return out;
      }
      spawn_mpi();
    } else {
      spawn_all();
    }
    watch();
    kill_all();
    sweep_segments();
    finish();
    attach_launcher_report();
    result_.duration_s = std::chrono::duration<double>(Clock::now() - start_).count();
    CaseOutcome out;
    out.result = result_;
    out.benchmarks = std::move(figures_);
    return out;
  }

 private:
  // --- starting -------------------------------------------------------------------------

  void spawn_all() {
    ensure_limits_for(spec_.ranks);
    const bool bind = spec_.bind == "core" || (spec_.bind == "auto" && opt_.topology &&
                                               spec_.ranks <= opt_.topology->cores());
    pid_t pgid = 0;
    for (int r = 0; r < spec_.ranks; ++r) {
      Rank rk;
      rk.rank = r;
      auto [ctrl_parent, ctrl_child] = make_socketpair();
      auto [kv_parent, kv_child] = make_socketpair();

      posix_spawn_file_actions_t fa;
      posix_spawn_file_actions_init(&fa);
      posix_spawn_file_actions_adddup2(&fa, ctrl_child.fd, 3);
      posix_spawn_file_actions_adddup2(&fa, kv_child.fd, 4);
      posix_spawnattr_t attr;
      posix_spawnattr_init(&attr);
      posix_spawnattr_setflags(
          &attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
      posix_spawnattr_setpgroup(&attr, pgid);
      sigset_t none, defaults;
      sigemptyset(&none);
      sigemptyset(&defaults);
      for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGCHLD}) sigaddset(&defaults, s);
      posix_spawnattr_setsigmask(&attr, &none);
      posix_spawnattr_setsigdefault(&attr, &defaults);

      std::vector<std::string> env_store;
      for (char** e = environ; *e; ++e) {
        if (std::strncmp(*e, "RMABENCH_", 9) != 0) env_store.emplace_back(*e);
      }
      env_store.push_back("RMABENCH_RANK=" + std::to_string(r));
      env_store.push_back("RMABENCH_SIZE=" + std::to_string(spec_.ranks));
      env_store.push_back("RMABENCH_PARENT=" + std::to_string(::getpid()));
      std::vector<char*> envp;
      for (auto& s : env_store) envp.push_back(s.data());
      envp.push_back(nullptr);
      std::vector<std::string> words;
      std::istringstream prefix(opt_.rank_exec);
      for (std::string w; prefix >> w;) {
        for (auto at = w.find("{rank}"); at != std::string::npos; at = w.find("{rank}"))
          w.replace(at, 6, std::to_string(r));
        words.push_back(std::move(w));
      }
      words.push_back(opt_.self_exe);
      words.emplace_back("__worker");
      std::vector<char*> argv;
      for (auto& w : words) argv.push_back(w.data());
      argv.push_back(nullptr);

      pid_t pid = -1;
      int rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv.data(), envp.data());
      posix_spawn_file_actions_destroy(&fa);
      posix_spawnattr_destroy(&attr);
      if (rc != 0) throw LaunchError("posix_spawn " + words.front() + ": " + std::strerror(rc));
      if (pgid == 0) pgid = pid;
      pgid_ = pgid;
      rk.pid = pid;
      rk.pidfd = Fd(pidfd_open(pid));
      if (rk.pidfd.fd < 0) throw LaunchError(std::string("pidfd_open: ") + std::strerror(errno));
      rk.ctrl = std::make_unique<ControlChannel>(ctrl_parent.release());
      rk.kv = std::move(kv_parent);
      kv_.attach(r, rk.kv.fd);
      if (bind) {
        try {
          rk.binding = opt_.topology->bind_to_core(pid, r);
        } catch (const std::exception& e) {
          rk.binding = std::string("none (") + e.what() + ")";
        }
      }
      ranks_.push_back(std::move(rk));
    }
  }

  // One launch of the MPI's launcher for the whole case; the ranks connect back.
  void spawn_mpi() {
    const ExternalLaunch& ext = *opt_.external;
    shm_before_ = shm_entries();
    // Ranks and proxies the launcher orphans are adopted here and reaped in kill_mpi(), not
    // left as zombies of whatever init the host has.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    ControlListener control = listen_control(ext.control_reach(), spec_.name_prefix + ".ctl");
    if (control.fd < 0) throw LaunchError("control socket: " + control.error);
    listen_ = Fd(control.fd);
    // A TCP endpoint is reachable by anyone on the network: a rank proves it is ours with
    // the token its environment carries.
    token_ = std::to_string(std::random_device{}()) + std::to_string(std::random_device{}());
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) throw LaunchError(std::string("pipe: ") + std::strerror(errno));
    Fd out_read(out[0]), out_write(out[1]);
    ::fcntl(out_read.fd, F_SETFL, ::fcntl(out_read.fd, F_GETFL) | O_NONBLOCK);

    std::vector<std::string> words = ext.command(spec_, {{"RMABENCH_CONTROL", control.endpoint},
                                                         {"RMABENCH_TOKEN", token_},
                                                         {"RMABENCH_SIZE", std::to_string(spec_.ranks)},
                                                         {"RMABENCH_PARENT", std::to_string(::getpid())}});
    launcher_cmd_.clear();
    for (const auto& w : words) launcher_cmd_ += (launcher_cmd_.empty() ? "" : " ") + w;

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out_write.fd, 1);
    posix_spawn_file_actions_adddup2(&fa, out_write.fd, 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr,
                             POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGCHLD}) sigaddset(&defaults, s);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    std::vector<std::string> env_store;
    for (char** e = environ; *e; ++e)
      if (std::strncmp(*e, "RMABENCH_", 9) != 0) env_store.emplace_back(*e);
    std::vector<char*> envp;
    for (auto& e : env_store) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0], &fa, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) throw LaunchError("posix_spawn " + words.front() + ": " + std::strerror(rc));
    launcher_pid_ = pid;
    pgid_ = pid;
    launcher_pidfd_ = Fd(pidfd_open(pid));
    if (launcher_pidfd_.fd < 0) throw LaunchError(std::string("pidfd_open: ") + std::strerror(errno));
    launcher_out_ = std::move(out_read);
    for (int r = 0; r < spec_.ranks; ++r) {
      Rank rk;
      rk.rank = r;
      rk.child = false;
      rk.ctrl_open = false;
      rk.kv_open = false;
      rk.binding = "by " + std::filesystem::path(ext.program()).filename().string();
      ranks_.push_back(std::move(rk));
    }
  }

  // A rank connected: it is known once its hello names its rank and pid.
  void on_accept() {
    for (;;) {
      const int fd = ::accept4(listen_.fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) return;
      pending_.push_back(std::make_unique<ControlChannel>(fd));
    }
  }

  void on_pending(std::size_t i) {
    auto& ch = pending_[i];
    if (!ch) return;
    const bool open = ch->read_available();
    if (auto m = ch->next()) {
      const int r = m->value("rank", -1);
      const pid_t pid = m->value("pid", -1);
      if (m->value("token", "") != token_) {
        ch.reset();  // not a rank of this case: a stray connection is no failure of it
        return;
      }
      if (m->value("t", "") != "hello" || r < 0 || r >= spec_.ranks || pid <= 0 ||
          ranks_[static_cast<std::size_t>(r)].ctrl) {
        result_.failures.push_back({r, "launcher", "unexpected first control message: " + m->dump()});
        ch.reset();
        return;
      }
      Rank& rk = ranks_[static_cast<std::size_t>(r)];
      const HostIdentity where = host_of(*m);
      rk.pid = pid;
      rk.host = host_label(where);
      rk.remote = !where.node.empty() && where.node != own_node_;
      if (!rk.remote) rk.pidfd = Fd(pidfd_open(pid));
      rk.ctrl = std::move(ch);
      rk.ctrl_open = true;
      handle_message(rk, *m);
      // Whatever else arrived with the hello.
      while (auto more = rk.ctrl->next()) handle_message(rk, *more);
      if (!rk.remote && rk.pidfd.fd < 0) on_exit(rk);  // gone already
      if (rk.remote && !rk.ctrl_open) on_exit(rk);
      return;
    }
    if (!open) ch.reset();
  }

  void on_launcher_output() {
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

  void on_launcher_exit() {
    siginfo_t info{};
    if (::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(launcher_pidfd_.fd), &info,
                 WEXITED | WNOHANG) != 0 ||
        info.si_pid == 0)
      return;
    launcher_exited_ = true;
    launcher_status_ = info.si_code == CLD_EXITED ? "exited with code " + std::to_string(info.si_status)
                                                  : "was killed by " + signal_name(info.si_status);
    if (launcher_out_.fd >= 0) on_launcher_output();
    // Ranks that never connected never will.
    for (auto& r : ranks_)
      if (!r.ctrl && !r.exited) {
        r.exited = true;
        r.never_connected = true;
      }
  }

  // --- watching -------------------------------------------------------------------------

  void watch() {
    const auto deadline = start_ + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(spec_.timeout_s));
    std::optional<Clock::time_point> early_end, crash_end;
    while (!all_exited()) {
      if (g_stop.load()) {
        // A crash this loop had already seen is the case's verdict, not the stop that came
        // while the survivors were still reporting what they saw. Only one seen on an earlier
        // turn: a signal sent to the whole job (a scheduler's SIGTERM) kills ranks too, and
        // their deaths, seen on the turn the stop came, are the stop's.
        interrupted_ = !crash_seen_;
        collect_states(kStateWaitCrash);
        return;
      }
      // After a crash the survivors get a short grace to report what they saw (an error
      // naming the dead peer is the library's promise); then whoever is still blocked is
      // asked for its state and stopped.
      if (crashed()) {
        crash_seen_ = true;
        if (survivors_reported()) return;
        if (!crash_end) crash_end = std::min(Clock::now() + kCrashGrace, deadline);
        if (Clock::now() >= *crash_end) {
          collect_states(kStateWaitCrash);
          return;
        }
      }
      // A rank that ended early (error, fail, skip) waits to be stopped; its peers are
      // usually stuck in the next barrier. Once every rank has reported, or the grace is
      // over, the case is done.
      if (ended_early()) {
        if (all_reported()) return;
        if (!early_end) early_end = Clock::now() + kEarlyEndGrace;
      }
      const auto now = Clock::now();
      if (early_end && now >= *early_end) return;
      if (now >= deadline) {
        deadline_hit_ = true;
        collect_states(kStateWait);
        return;
      }
      auto until = deadline;
      if (early_end && *early_end < until) until = *early_end;
      if (crash_end && *crash_end < until) until = *crash_end;
      pump(std::min<Clock::duration>(until - now, std::chrono::milliseconds(200)));
    }
  }

  bool all_exited() const {
    for (const auto& r : ranks_)
      if (!r.exited) return false;
    return true;
  }

  bool all_reported() const {
    for (const auto& r : ranks_)
      if (!r.result) return false;
    return true;
  }

  bool survivors_reported() const {
    for (const auto& r : ranks_)
      if (!r.exited && !r.result) return false;
    return true;
  }

  bool crashed() const {
    for (const auto& r : ranks_)
      if (r.exited && !(r.bye && r.exit_code == 0 && r.exit_signal == 0)) return true;
    return false;
  }

  bool ended_early() const {
    for (const auto& r : ranks_)
      if (r.result && r.result_msg.value("early", false)) return true;
    return false;
  }

  // Waits up to `d` for any event and handles everything that is ready.
  void pump(Clock::duration d) {
    // What a polled descriptor is: a rank's control channel, its bootstrap socket, its exit;
    // on the MPI path also the listening socket, a connection before its hello, the
    // launcher's output and the launcher's exit.
    enum Src { ctrl, kv, exit, listen, pending, out, launcher_exit };
    struct Who {
      Src src;
      std::size_t index;
    };
    std::vector<pollfd> fds;
    std::vector<Who> who;
    for (std::size_t i = 0; i < ranks_.size(); ++i) {
      auto& r = ranks_[i];
      if (r.ctrl_open && r.ctrl) {
        fds.push_back({r.ctrl->fd(), POLLIN, 0});
        who.push_back({ctrl, i});
      }
      if (r.kv_open) {
        fds.push_back({r.kv.fd, POLLIN, 0});
        who.push_back({kv, i});
      }
      if (!r.exited && r.pidfd.fd >= 0) {
        fds.push_back({r.pidfd.fd, POLLIN, 0});
        who.push_back({exit, i});
      }
    }
    if (listen_.fd >= 0) {
      fds.push_back({listen_.fd, POLLIN, 0});
      who.push_back({listen, 0});
    }
    for (std::size_t i = 0; i < pending_.size(); ++i)
      if (pending_[i]) {
        fds.push_back({pending_[i]->fd(), POLLIN, 0});
        who.push_back({pending, i});
      }
    if (launcher_out_.fd >= 0) {
      fds.push_back({launcher_out_.fd, POLLIN, 0});
      who.push_back({out, 0});
    }
    if (launcher_pidfd_.fd >= 0 && !launcher_exited_) {
      fds.push_back({launcher_pidfd_.fd, POLLIN, 0});
      who.push_back({launcher_exit, 0});
    }
    const int ms =
        static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
    const int n = ::poll(fds.data(), fds.size(), std::max(ms, 0));
    if (n <= 0) return;
    // Messages first, exits last: a rank's final result is read before its exit is judged.
    auto pass_of = [](Src s) { return s == exit || s == launcher_exit ? 2 : s == kv ? 1 : 0; };
    for (int pass = 0; pass < 3; ++pass) {
      for (std::size_t i = 0; i < fds.size(); ++i) {
        if (!fds[i].revents || pass_of(who[i].src) != pass) continue;
        switch (who[i].src) {
          case ctrl: on_control(ranks_[who[i].index]); break;
          case kv: on_kv(ranks_[who[i].index]); break;
          case exit: on_exit(ranks_[who[i].index]); break;
          case listen: on_accept(); break;
          case pending: on_pending(who[i].index); break;
          case out: on_launcher_output(); break;
          case launcher_exit: on_launcher_exit(); break;
        }
      }
    }
  }

  void on_control(Rank& r) {
    if (!r.ctrl) return;
    if (!r.ctrl->read_available()) r.ctrl_open = false;
    while (auto m = r.ctrl->next()) handle_message(r, *m);
    // A rank on another node has no pidfd here: its channel's end is its exit.
    if (r.remote && !r.ctrl_open && !r.exited) on_exit(r);
  }

  void handle_message(Rank& r, const json& m) {
    const std::string t = m.value("t", "");
    if (t == "hello") {
      r.hello = true;
      // An MPI rank names its library with the version (mpi_rank.hpp).
      if (m.contains("impl") && m["impl"].is_string()) named_impl_ = m["impl"].get<std::string>();
      json c = suite::to_json(spec_);
      c["t"] = "case";
      r.ctrl->send(c);
    } else if (t == "log") {
      std::string line = "rank " + std::to_string(r.rank) + ": " + m.value("text", "");
      if (opt_.verbose) std::cerr << line << "\n";
      result_.log.push_back(std::move(line));
    } else if (t == "figures") {
      // Kept whatever becomes of the case: an interrupted sweep reports the rows it finished.
      if (m.contains("benchmarks") && m["benchmarks"].is_array()) {
        for (const auto& b : m["benchmarks"]) figures_.push_back(b);
        if (opt_.on_figures) opt_.on_figures(m["benchmarks"]);
      }
    } else if (t == "result") {
      r.result = true;
      r.result_msg = m;
    } else if (t == "state") {
      r.state_msg = m;
    } else if (t == "bye") {
      r.bye = true;
    } else if (t == "signal") {
      // An MPI rank's own word on the signal that is ending it (its launcher may report a
      // different exit status, or none).
      r.exit_signal = m.value("signal", 0);
    } else if (t == "batch_done") {
      // The origin of a truly-passive benchmark ended a batch: the computing targets stop.
      for (auto& other : ranks_)
        if (other.rank != r.rank && other.ctrl_open)
          other.ctrl->send({{"t", "stop_compute"}, {"batch", m.value("batch", 0)}});
    } else {
      result_.failures.push_back({r.rank, "launcher", "unreadable control message: " + m.dump()});
    }
  }

  void on_kv(Rank& r) {
    rma::Status s = kv_.on_readable(r.rank);
    if (!s) r.kv_open = false;  // closed at exit, or garbage: either way we stop listening
  }

  void on_exit(Rank& r) {
    if (!r.child) {
      // Not ours to wait for: the pidfd said it ended; a signal it reported stays recorded.
      r.exited = true;
      r.exit_seq = ++exits_seen_;
      if (r.ctrl_open) on_control(r);
      if (!r.bye && !r.exit_signal) r.exit_code = -1;  // known only to the MPI launcher
      return;
    }
    siginfo_t info{};
    if (::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(r.pidfd.fd), &info,
                 WEXITED | WNOHANG) != 0 ||
        info.si_pid == 0)
      return;
    r.exited = true;
    if (info.si_code == CLD_EXITED)
      r.exit_code = info.si_status;
    else
      r.exit_signal = info.si_status;
    // Drain whatever the rank wrote before it went.
    if (r.ctrl_open) on_control(r);
  }

  // Asks every live rank what it is doing and waits up to `wait` for the answers.
  void collect_states(Clock::duration wait) {
    for (auto& r : ranks_)
      if (r.live() && r.ctrl_open) r.ctrl->send({{"t", "state?"}});
    const auto until = Clock::now() + wait;
    while (Clock::now() < until) {
      bool all = true;
      for (const auto& r : ranks_)
        if (r.live() && r.ctrl_open && r.state_msg.is_null()) all = false;
      if (all) break;
      pump(std::min<Clock::duration>(until - Clock::now(), std::chrono::milliseconds(50)));
    }
    states_collected_ = true;
  }

  // --- ending ---------------------------------------------------------------------------

  void kill_all() {
    if (opt_.external) {
      kill_mpi();
      return;
    }
    if (pgid_ > 0) ::kill(-pgid_, SIGKILL);
    for (auto& r : ranks_) {
      if (r.exited || r.pid <= 0) continue;
      siginfo_t info{};
      if (::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(r.pidfd.fd), &info, WEXITED) ==
          0) {
        r.exited = true;
        r.killed = true;
        if (info.si_code == CLD_EXITED)
          r.exit_code = info.si_status;
        else
          r.exit_signal = info.si_status;
      }
    }
    pgid_ = 0;
  }

  // The launcher's process group, then every rank we were told of (a launcher may put its
  // ranks in groups of their own); waits until each is gone.
  void kill_mpi() {
    if (launcher_pid_ <= 0) return;
    // After a clean end the launcher exits by itself; give it a moment to say how it ended.
    if (!launcher_exited_ && all_exited() && !deadline_hit_ && !interrupted_) {
      const auto until = Clock::now() + std::chrono::seconds(2);
      while (!launcher_exited_ && Clock::now() < until) pump(std::chrono::milliseconds(50));
    }
    // Whatever ends a rank from here on is our stop, also while the launcher tears its job
    // down (a remote rank is reached only that way).
    for (auto& r : ranks_)
      if (!r.exited && (r.pidfd.fd >= 0 || r.remote)) r.killed = true;
    ask_launcher_to_stop();
    if (pgid_ > 0) ::kill(-pgid_, SIGKILL);
    for (auto& r : ranks_)
      if (r.pidfd.fd >= 0) ::syscall(SYS_pidfd_send_signal, r.pidfd.fd, SIGKILL, nullptr, 0);
    if (!launcher_exited_) {
      siginfo_t info{};
      ::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(launcher_pidfd_.fd), &info, WEXITED);
      launcher_exited_ = true;
      if (launcher_status_.empty()) launcher_status_ = "was stopped";
    }
    for (auto& r : ranks_) {
      if (r.pidfd.fd < 0) continue;
      pollfd p{r.pidfd.fd, POLLIN, 0};
      ::poll(&p, 1, 2000);
      r.exited = true;
    }
    // Dead ranks whose proxy died too are orphaned to this process (the subreaper): reap them
    // and whatever else of the launcher was adopted, until no rank is left even as a zombie
    // (a signal to a reaped process's pidfd fails), for at most a second.
    auto lingering = [&] {
      for (const auto& r : ranks_)
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
    if (launcher_out_.fd >= 0) on_launcher_output();
    pgid_ = 0;
    launcher_pid_ = 0;
  }

  // A launcher with a stop signal (srun) ends its job itself, on every node, and says so
  // to its resource manager; it gets a few seconds before the whole group is killed.
  void ask_launcher_to_stop() {
    const int sig = opt_.external->stop_signal();
    if (sig == 0 || launcher_exited_) return;
    ::kill(launcher_pid_, sig);
    const auto until = Clock::now() + std::chrono::seconds(3);
    while (!launcher_exited_ && Clock::now() < until) pump(std::chrono::milliseconds(50));
  }

  // What an MPI library left in /dev/shm when its ranks were killed (Open MPI's
  // vader_segment.*, for one): entries that appeared during the case and that no live process
  // has mapped or open — another job's live segment is never touched.
  void sweep_mpi_segments() {
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

  void sweep_segments() {
    if (opt_.external && swept_mpi_ == false && launcher_exited_) {
      swept_mpi_ = true;
      sweep_mpi_segments();
    }
    const std::string prefix = spec_.name_prefix + ".";
    DIR* d = ::opendir("/dev/shm");
    if (!d) return;
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) {
      if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) == 0)
        names.emplace_back(e->d_name);
    }
    ::closedir(d);
    for (const auto& n : names) ::shm_unlink(("/" + n).c_str());
  }

  json rank_state_json(const Rank& r) const {
    json s;
    if (r.state_msg.is_object()) {
      s = r.state_msg;
      s.erase("t");
      s.erase("trace");  // the case's trace has it (attach_trace)
    } else if (r.result) {
      s = {{"state", "reported " + r.result_msg.value("status", std::string("a result"))}};
    } else if (r.killed || r.live()) {
      s = {{"state", "no reply"}};
    } else {
      s = {{"state", r.bye ? "finished" : "exited"}};
    }
    s["rank"] = r.rank;
    if (r.exited && !r.killed) {
      if (r.exit_signal)
        s["signal"] = signal_name(r.exit_signal);
      else
        s["exit_code"] = r.exit_code;
    }
    return s;
  }

  // The launcher's own report of a rank that ended without saying how (parse_launcher_report).
  // What a rank reported itself (its signal) stays first.
  void apply_launcher_report() {
    const LauncherReport rep = parse_launcher_report(launcher_text_);
    for (const auto& [pid, code] : rep.code_by_pid)
      for (auto& r : ranks_)
        if (r.pid == pid && r.exit_code == -1) {
          r.exit_code = code;
          r.code_from_launcher = true;
        }
    for (const auto& [rank, code] : rep.code_by_rank) {
      const auto at = static_cast<std::size_t>(rank);
      if (at < ranks_.size() && ranks_[at].exit_code == -1) {
        ranks_[at].exit_code = code;
        ranks_[at].code_from_launcher = true;
      }
    }
  }

  // How a rank that ended by itself, not cleanly, ended.
  std::string how_ended(const Rank& r) const {
    return r.exit_signal ? "was killed by " + signal_name(r.exit_signal)
           : r.never_connected
               ? "never connected (" + launcher_name() + " " + launcher_status_ + ")"
           : r.exit_code == -1 ? "ended without a result (its exit status is known "
                                 "only to " + launcher_name() + ", which " +
                                 launcher_status_ + ")"
           : r.code_from_launcher
               ? "exited with code " + std::to_string(r.exit_code) + " (as " +
                     launcher_name() + " reports it)"
               : "exited with code " + std::to_string(r.exit_code);
  }

  // A rank as the verdict reads it: a crash is an end by itself before saying bye, or by a
  // signal; a rank that never connected is left to the deadline's verdict once it passed.
  RankEnd rank_end(const Rank& r) const {
    RankEnd e;
    e.rank = r.rank;
    const bool clean = r.killed || (r.bye && r.exit_code == 0 && r.exit_signal == 0);
    if (!clean && r.exited && !(r.never_connected && deadline_hit_)) {
      e.crash = how_ended(r);
      e.crash_detail = r.result ? " after its result" : "";
    }
    e.in_case = !(r.result && r.bye);  // else it finished before the deadline
    e.state = r.state_msg;
    return e;
  }

  void finish() {
    for (const auto& r : ranks_) result_.binding.push_back(r.binding);
    for (const auto& r : ranks_)
      if (!r.host.empty()) {
        for (const auto& each : ranks_) result_.hosts.push_back(each.host);
        break;
      }
    // A stopped case keeps the states it was stopped in.
    if (!interrupted_ && opt_.external) apply_launcher_report();
    CaseEnd end;
    end.interrupted = interrupted_;
    end.deadline_hit = deadline_hit_;
    end.rank_states = json::array();
    for (const auto& r : ranks_) end.rank_states.push_back(rank_state_json(r));
    // On the MPI path, a rank that named its signal first: its peers are then ended by the
    // launcher, which is a consequence, not the cause. The fork path keeps rank order.
    std::vector<const Rank*> order;
    for (const auto& r : ranks_) order.push_back(&r);
    if (opt_.external) std::stable_sort(order.begin(), order.end(), [](const Rank* a, const Rank* b) {
      if ((a->exit_signal != 0) != (b->exit_signal != 0)) return a->exit_signal != 0;
      if (a->code_from_launcher != b->code_from_launcher) return a->code_from_launcher;
      return (a->exit_seq ? a->exit_seq : 1 << 30) < (b->exit_seq ? b->exit_seq : 1 << 30);
    });
    for (const Rank* r : order) end.ranks.push_back(rank_end(*r));
    end.merge = [this](reports::CaseResult& out) { merge_results(out); };
    judge(spec_, end, result_);
  }

  std::string launcher_name() const {
    return opt_.external ? std::filesystem::path(opt_.external->program()).filename().string() : "";
  }

  // What the MPI launcher printed, when the case did not pass: its last lines explain a crash
  // or a start that failed (the signal a rank died of, a component that did not load).
  void attach_launcher_report() {
    if (!opt_.external || result_.status == reports::Verdict::pass || result_.status == reports::Verdict::skip)
      return;
    std::vector<std::string> lines;
    std::istringstream in(launcher_text_);
    for (std::string l; std::getline(in, l);)
      if (!l.empty() && l.find_first_not_of("- ") != std::string::npos) lines.push_back(l);
    const std::size_t first = lines.size() > 12 ? lines.size() - 12 : 0;
    std::string text = launcher_cmd_ + " " + launcher_status_;
    for (std::size_t i = first; i < lines.size(); ++i) text += "\n" + lines[i];
    result_.failures.push_back({-1, launcher_name(), text});
  }

  void merge_results(reports::CaseResult& out) {
    std::vector<json> results;
    for (const auto& r : ranks_) results.push_back(r.result ? r.result_msg : json());
    launcher::merge_rank_results(results, out, named_impl_);
    if (spec_.trace) attach_trace(out);
  }

  // --trace: each rank's ring from its result, or from its state when it did not finish.
  void attach_trace(reports::CaseResult& out) const {
    std::vector<json> per_rank;
    for (const auto& r : ranks_) {
      if (r.result && r.result_msg.contains("trace"))
        per_rank.push_back(r.result_msg["trace"]);
      else if (r.state_msg.is_object() && r.state_msg.contains("trace"))
        per_rank.push_back(r.state_msg["trace"]);
      else
        per_rank.push_back(json());
    }
    out.trace = reports::to_json(reports::merge_rank_traces(per_rank));
  }

  suite::CaseSpec spec_;
  const LaunchOptions& opt_;
  // The MPI path (opt_.external): the launcher, its output, the control socket.
  Fd listen_;
  std::vector<std::unique_ptr<ControlChannel>> pending_;
  pid_t launcher_pid_ = 0;
  Fd launcher_pidfd_;
  Fd launcher_out_;
  bool launcher_exited_ = false;
  int exits_seen_ = 0;
  std::set<std::string> shm_before_;
  bool swept_mpi_ = false;
  std::string launcher_status_;
  std::string launcher_text_;
  std::string launcher_cmd_;
  rma::bootstrap::KvServer kv_;
  std::vector<Rank> ranks_;
  pid_t pgid_ = 0;
  Clock::time_point start_;
  bool deadline_hit_ = false;
  bool interrupted_ = false;
  bool crash_seen_ = false;  // watch() saw a rank's abnormal end before any stop request
  bool states_collected_ = false;
  reports::CaseResult result_;
  json figures_ = json::array();  // the origin's benchmark entries, as they came
  std::string named_impl_;  // the library and version an MPI rank's hello named
  std::string token_;       // what a rank's hello must carry (spawn_mpi)
  std::string own_node_ = this_host().node;
};

}  // namespace

CaseOutcome run_case(const suite::CaseSpec& spec, const LaunchOptions& options) {
  CaseRun run(spec, options);
  return run.run();
}

void request_stop() {
  g_stop.store(true);
}
bool stop_requested() {
  return g_stop.load();
}

void sweep_stale_segments() {
  DIR* d = ::opendir("/dev/shm");
  if (!d) return;
  std::vector<std::string> stale;
  while (dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n.rfind("rmabench.", 0) != 0) continue;
    const auto dot = n.find('.', 9);
    const pid_t owner = static_cast<pid_t>(std::atol(n.substr(9, dot - 9).c_str()));
    if (owner > 0 && ::kill(owner, 0) != 0 && errno == ESRCH) stale.push_back(n);
  }
  ::closedir(d);
  for (const auto& n : stale) ::shm_unlink(("/" + n).c_str());
}

}  // namespace harness::launcher
