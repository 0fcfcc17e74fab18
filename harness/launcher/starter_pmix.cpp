// starter_pmix.cpp — ranks started by the agents of a PMIx job's tasks (pmix_job.hpp): rank
// r on task r. Their connections reach task 0's listener: a control channel known by its
// hello, a bootstrap socket by its first line. A rank is not our child: how it ended is its
// agent's report, applied once its control channel has delivered everything it wrote.
#include <sys/socket.h>

#include <cerrno>
#include <memory>
#include <optional>

#include "launcher/pmix_job.hpp"
#include "launcher/rank_starter.hpp"

namespace harness::launcher {
namespace {

using Clock = std::chrono::steady_clock;

// How long the agents get to report the ends of the ranks a stop killed.
constexpr auto kStopWait = std::chrono::seconds(10);

// A connection before it said whose it is: its first line, read a byte at a time so that
// nothing after it is taken from the rank.
struct Pending {
  Fd fd;
  std::string line;
};

class PmixStarter final : public RankStarter {
 public:
  explicit PmixStarter(PmixJob& job) : job_(job) {}
  ~PmixStarter() override { job_.set_sink(nullptr); }

  std::string skip_reason(const suite::CaseSpec& spec) const override {
    if (spec.ranks > job_.size())
      return "needs " + std::to_string(spec.ranks) + " ranks; the launcher started " +
             std::to_string(job_.size());
    return "";
  }
  void start(CaseHost& host) override;
  void add_polls(PollSet& polls) override;
  // A rank's control channel ended: its agent's report, if it came, is now complete.
  void on_exit(Rank& r) override { apply_end(r); }
  void stop(bool clean) override;
  void sweep() override;

 private:
  void on_agent(int task, const Message* m);
  void on_pending(Pending& p);
  void take_bootstrap(Pending& p, const BootstrapGreeting& g);
  void take_control(Pending& p);
  void apply_end(Rank& r);
  Rank* rank_at(int r) {
    auto& ranks = host_->ranks();
    return r >= 0 && r < static_cast<int>(ranks.size()) ? &ranks[static_cast<std::size_t>(r)]
                                                        : nullptr;
  }

  PmixJob& job_;
  CaseHost* host_ = nullptr;
  std::string token_;
  std::vector<std::unique_ptr<Pending>> pending_;
  std::vector<std::optional<RankExited>> ends_;  // each rank's report from its agent
  bool stopping_ = false;
};

void PmixStarter::start(CaseHost& host) {
  host_ = &host;
  const suite::CaseSpec& spec = host.spec();
  token_ = job_.token() + ":" + spec.name_prefix;
  ends_.assign(static_cast<std::size_t>(spec.ranks), std::nullopt);
  job_.set_sink([this](int task, const Message* m) { on_agent(task, m); });
  for (int r = 0; r < spec.ranks; ++r) {
    Rank rk;
    rk.rank = r;
    rk.child = false;
    rk.remote = true;  // its end is its agent's word, applied when its channel ends
    rk.ctrl_open = false;
    rk.kv_open = false;
    rk.host = host_label(job_.host(r));
    host.ranks().push_back(std::move(rk));
  }
  for (int r = 0; r < spec.ranks; ++r) job_.send(r, StartRank{r, spec.ranks, token_});
}

void PmixStarter::add_polls(PollSet& polls) {
  polls.add(job_.listener(), PollSet::Pass::messages, [this] {
    for (int fd;
         (fd = ::accept4(job_.listener(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0;)
      pending_.push_back(std::make_unique<Pending>(Pending{Fd(fd), ""}));
  });
  std::erase_if(pending_, [](const auto& p) { return p->fd.fd < 0; });
  for (auto& p : pending_)
    polls.add(p->fd.fd, PollSet::Pass::messages, [this, q = p.get()] { on_pending(*q); });
  job_.add_polls(polls);
}

void PmixStarter::on_pending(Pending& p) {
  for (char c; p.fd.fd >= 0;) {
    const ssize_t n = ::recv(p.fd.fd, &c, 1, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (n <= 0 || p.line.size() > 64 * 1024) {  // gone, or no line of ours
      p.fd.reset();
      return;
    }
    if (c != '\n') {
      p.line += c;
      continue;
    }
    if (auto greeting = read_bootstrap_greeting(p.line))
      take_bootstrap(p, *greeting);
    else
      take_control(p);
    p.fd.reset();  // taken by its rank, or not ours
  }
}

// The rank's bootstrap socket.
void PmixStarter::take_bootstrap(Pending& p, const BootstrapGreeting& g) {
  Rank* rk = g.token == token_ ? rank_at(g.rank) : nullptr;
  if (!rk || rk->kv.fd >= 0) return;
  rk->kv = std::move(p.fd);
  rk->kv_open = true;
  host_->kv().attach(g.rank, rk->kv.fd);
}

// The rank's hello: its control channel.
void PmixStarter::take_control(Pending& p) {
  const Message m = decode_line(p.line);
  const auto* hello = std::get_if<Hello>(&m);
  Rank* rk = hello && hello->token == token_ ? rank_at(hello->rank) : nullptr;
  if (!rk || rk->ctrl || rk->exited) return;
  rk->pid = static_cast<pid_t>(hello->pid);
  rk->ctrl = std::make_unique<ControlChannel>(p.fd.release());
  rk->ctrl_open = true;
  host_->handle_message(*rk, m);
}

void PmixStarter::on_agent(int task, const Message* m) {
  if (!m) {  // the agent is gone, and with it the ranks it started
    for (auto& r : host_->ranks())
      if (r.rank == task && !r.exited) {
        host_->add_failure(task, "the agent of task " + std::to_string(task) + " ended");
        ends_[static_cast<std::size_t>(task)] = RankExited{task, 0, 0, "agent ended"};
        r.ctrl_open = false;
        apply_end(r);
      }
    return;
  }
  const auto* ended = std::get_if<RankExited>(m);
  Rank* rk = ended ? rank_at(ended->rank) : nullptr;
  if (!rk || rk->exited) return;
  if (!ended->error.empty())
    host_->add_failure(rk->rank,
                       "could not start on task " + std::to_string(task) + ": " + ended->error);
  ends_[static_cast<std::size_t>(rk->rank)] = *ended;
  if (rk->ctrl_open && rk->ctrl)
    host_->read_control(*rk);  // applies it once the channel ends
  else
    apply_end(*rk);
}

// The rank has ended once its agent said so and its control channel has nothing left.
void PmixStarter::apply_end(Rank& r) {
  const auto& end = ends_[static_cast<std::size_t>(r.rank)];
  if (r.exited || !end || (r.ctrl && r.ctrl_open)) return;
  r.exited = true;
  r.never_connected = !r.hello;
  r.killed = stopping_;
  r.exit_code = end->exit_code;
  if (end->signal) r.exit_signal = end->signal;
  if (!end->error.empty() && !r.killed) r.exit_code = 127;
}

void PmixStarter::stop(bool) {
  if (!host_) return;
  stopping_ = true;
  for (auto& r : host_->ranks())
    if (!r.exited) job_.send(r.rank, StopRank{r.rank});
  const auto until = Clock::now() + kStopWait;
  while (!host_->all_exited() && Clock::now() < until) host_->pump(std::chrono::milliseconds(100));
  for (auto& r : host_->ranks())
    if (!r.exited) {
      host_->add_failure(r.rank, "its agent did not report its end after a stop");
      r.exited = true;
      r.killed = true;
    }
}

void PmixStarter::sweep() {
  if (!host_) return;
  for (int t = 1; t < job_.size(); ++t) job_.send(t, Sweep{host_->spec().name_prefix});
}

}  // namespace

std::unique_ptr<RankStarter> pmix_starter(const LaunchOptions& options) {
  return std::make_unique<PmixStarter>(*options.pmix);
}

}  // namespace harness::launcher
