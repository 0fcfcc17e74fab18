// pmix_job.hpp — the tasks of a job an external launcher with PMIx started (srun --mpi=pmix,
// mpirun), joined into the one process manager the other ways of starting ranks have: task 0
// runs the run and watches every case (its rank starter is starter_pmix.cpp); every task
// hosts an agent (pmix_agent.hpp) that starts the ranks placed on it and says how they
// ended. PMIx itself only carries, once, where task 0 listens (control_socket.hpp): an
// abstract socket when every task shares its network namespace, a socket file when they
// share its host, else TCP on this host's address.
//
// Rank r of a case runs on task r, so a case needs at most as many ranks as the job has
// tasks. Since a rank is the agent's child, not a task of the job, a rank that crashes or
// deadlocks is judged like a forked one and the job goes on with the next case.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "launcher/control.hpp"
#include "launcher/control_socket.hpp"
#include "launcher/host_identity.hpp"
#include "launcher/pmix_agent.hpp"
#include "launcher/poll_set.hpp"
#include "launcher/rank.hpp"
#include "rma/bootstrap.hpp"

namespace harness::launcher {

class PmixJob {
 public:
  // Every task calls it, collectively: task 0 listens and waits for every other task's
  // agent to connect. Throws LaunchError when that fails.
  PmixJob(rma::bootstrap::Bootstrap& pmix, std::string self_exe);
  ~PmixJob();  // task 0: every agent is told to quit
  PmixJob(const PmixJob&) = delete;
  PmixJob& operator=(const PmixJob&) = delete;

  int task() const { return task_; }
  int size() const { return size_; }
  // A task other than 0: its agent serves task 0 until the run ends. Returns the exit code.
  int serve();

  // --- task 0's, for its rank starter -------------------------------------------------
  int listener() const { return listen_.fd; }
  const std::string& token() const { return token_; }
  const HostIdentity& host(int task) const { return hosts_[static_cast<std::size_t>(task)]; }
  // Where what the agents say goes: a message from task `task`'s agent, or (nullopt) the
  // news that the agent is gone.
  using Sink = std::function<void(int task, const Message* m)>;
  void set_sink(Sink sink) { sink_ = std::move(sink); }
  // To the agent of `task` (task 0's is in this process).
  void send(int task, const Message& m);
  // The agents' channels and task 0's own ranks.
  void add_polls(PollSet& polls);

 private:
  void lead(rma::bootstrap::Bootstrap& pmix);
  ControlReach reach(rma::bootstrap::Bootstrap& pmix) const;
  void join(rma::bootstrap::Bootstrap& pmix);
  void accept_agents();
  void read_agent(int task);

  int task_, size_;
  std::string self_exe_;
  std::string endpoint_, token_;
  Fd listen_;
  std::vector<HostIdentity> hosts_;
  std::vector<std::unique_ptr<ControlChannel>> agents_;  // task 0: one per task, [0] empty
  std::unique_ptr<ControlChannel> up_;                   // others: the channel to task 0
  std::unique_ptr<RankAgent> agent_;                     // this task's own
  Sink sink_;
};

}  // namespace harness::launcher
