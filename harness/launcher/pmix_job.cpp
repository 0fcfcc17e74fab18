// pmix_job.cpp — joining a PMIx job's tasks (pmix_job.hpp): task 0's endpoint through PMIx,
// the agents' connections, and the messages between task 0 and them.
#include "launcher/pmix_job.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <random>

#include "launcher/control_socket.hpp"
#include "launcher/launcher.hpp"

namespace harness::launcher {
namespace {

using Clock = std::chrono::steady_clock;

// How long task 0 waits for every agent to connect, and an agent to reach task 0.
constexpr auto kJoinLimit = std::chrono::seconds(60);

void must(const rma::Status& s, const char* what) {
  if (!s) throw LaunchError(std::string(what) + ": " + s.to_string());
}

std::string where(const HostIdentity& h) {
  return h.node + "\n" + h.netns;
}

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

}  // namespace

PmixJob::PmixJob(rma::bootstrap::Bootstrap& pmix, std::string self_exe)
    : task_(pmix.rank()), size_(pmix.size()), self_exe_(std::move(self_exe)) {
  // Every task says where it runs; task 0 picks how the others reach it.
  must(pmix.put("rmabench.where." + std::to_string(task_), where(this_host())), "PMIx put");
  must(pmix.fence(), "PMIx fence");
  if (task_ == 0)
    lead(pmix);
  else
    join(pmix);
}

PmixJob::~PmixJob() {
  for (auto& a : agents_)
    if (a) a->send(Quit{});
  if (task_ == 0 && endpoint_.rfind("unix:", 0) == 0) ::unlink(endpoint_.substr(5).c_str());
}

// How the other tasks reach task 0: within its network namespace by an abstract socket, on
// its host through a socket file (namespaces acting as hosts share the file system), else
// over TCP.
ControlReach PmixJob::reach(rma::bootstrap::Bootstrap& pmix) const {
  const std::string here = where(this_host());
  const std::string node = here.substr(0, here.find('\n'));
  bool same_netns = true, same_node = true;
  for (int t = 1; t < size_; ++t) {
    auto w = pmix.get("rmabench.where." + std::to_string(t));
    must(w.status(), "PMIx get");
    same_netns = same_netns && w.value() == here;
    same_node = same_node && w.value().substr(0, w.value().find('\n')) == node;
  }
  if (same_netns) return {};
  if (same_node)
    return {ControlReach::Kind::path, "/tmp/rmabench." + std::to_string(::getpid()) + ".job"};
  return {ControlReach::Kind::tcp, own_address()};
}

void PmixJob::lead(rma::bootstrap::Bootstrap& pmix) {
  ControlListener l =
      listen_control(reach(pmix), "rmabench." + std::to_string(::getpid()) + ".job");
  if (l.fd < 0) throw LaunchError("control socket: " + l.error);
  listen_ = Fd(l.fd);
  endpoint_ = l.endpoint;
  // A TCP endpoint is reachable by anyone on the network: ranks and agents prove they are
  // the job's with this token.
  token_ = std::to_string(std::random_device{}()) + std::to_string(std::random_device{}());
  must(pmix.put("rmabench.control.0", endpoint_ + " " + token_), "PMIx put");
  must(pmix.fence(), "PMIx fence");
  hosts_.assign(static_cast<std::size_t>(size_), HostIdentity{});
  hosts_[0] = this_host();
  agents_.resize(static_cast<std::size_t>(size_));
  agent_ = std::make_unique<RankAgent>(self_exe_, endpoint_, [this](const Message& m) {
    if (sink_) sink_(0, &m);
  });
  accept_agents();
}

void PmixJob::join(rma::bootstrap::Bootstrap& pmix) {
  must(pmix.fence(), "PMIx fence");
  auto c = pmix.get("rmabench.control.0");
  must(c.status(), "PMIx get");
  const std::string& word = c.value();
  endpoint_ = word.substr(0, word.find(' '));
  token_ = word.substr(word.find(' ') + 1);
  std::string error;
  const int fd = connect_control(
      endpoint_, std::chrono::duration_cast<std::chrono::milliseconds>(kJoinLimit), &error);
  if (fd < 0) throw LaunchError("cannot reach task 0 at " + endpoint_ + ": " + error);
  set_nonblocking(fd);
  up_ = std::make_unique<ControlChannel>(fd);
  up_->send(Hello{task_, ::getpid(), token_, "", this_host()});
  agent_ =
      std::make_unique<RankAgent>(self_exe_, endpoint_, [this](const Message& m) { up_->send(m); });
}

// Task 0: every other task's agent connects and says hello with the token.
void PmixJob::accept_agents() {
  const auto until = Clock::now() + kJoinLimit;
  std::vector<std::unique_ptr<ControlChannel>> pending;
  int joined = 0;
  while (joined < size_ - 1) {
    if (Clock::now() >= until)
      throw LaunchError("only " + std::to_string(joined) + " of the job's " +
                        std::to_string(size_ - 1) + " other tasks connected to task 0");
    PollSet polls;
    polls.add(listen_.fd, PollSet::Pass::messages, [&] {
      for (int fd;
           (fd = ::accept4(listen_.fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0;)
        pending.push_back(std::make_unique<ControlChannel>(fd));
    });
    // By index: the accept above may grow `pending` before these run.
    for (std::size_t i = 0; i < pending.size(); ++i)
      if (pending[i])
        polls.add(pending[i]->fd(), PollSet::Pass::messages, [&, i] {
          auto& ch = pending[i];
          const bool open = ch->read_available();
          auto m = ch->next();
          const auto* hello = m ? std::get_if<Hello>(&*m) : nullptr;
          if (hello && hello->token == token_ && hello->rank > 0 && hello->rank < size_ &&
              !agents_[static_cast<std::size_t>(hello->rank)]) {
            hosts_[static_cast<std::size_t>(hello->rank)] = hello->host;
            agents_[static_cast<std::size_t>(hello->rank)] = std::move(ch);
            ++joined;
          } else if (m || !open) {
            ch.reset();  // not an agent of this job
          }
        });
    polls.wait(std::chrono::milliseconds(200));
  }
}

int PmixJob::serve() {
  return serve_as_agent(*up_, *agent_);
}

void PmixJob::send(int task, const Message& m) {
  if (task == 0) {
    agent_->handle(m);
    return;
  }
  if (auto& a = agents_[static_cast<std::size_t>(task)]) a->send(m);
}

void PmixJob::add_polls(PollSet& polls) {
  for (int t = 1; t < size_; ++t)
    if (agents_[static_cast<std::size_t>(t)])
      polls.add(agents_[static_cast<std::size_t>(t)]->fd(), PollSet::Pass::exits,
                [this, t] { read_agent(t); });
  agent_->add_polls(polls);
}

void PmixJob::read_agent(int task) {
  auto& a = agents_[static_cast<std::size_t>(task)];
  const bool open = a->read_available();
  while (auto m = a->next())
    if (sink_) sink_(task, &*m);
  if (!open) {
    a.reset();
    if (sink_) sink_(task, nullptr);
  }
}

}  // namespace harness::launcher
