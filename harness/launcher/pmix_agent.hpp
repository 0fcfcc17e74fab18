// pmix_agent.hpp — the ranks of a PMIx job's task (srun --mpi=pmix, mpirun): under such a
// launcher every task of the job runs rmabench, task 0 watches the cases (starter_pmix.cpp)
// and every task hosts an agent that starts the ranks placed on it.
//
// For each rank rank 0 asks for (StartRank), the agent connects two sockets to rank 0's
// control endpoint, the rank's control channel and its bootstrap socket, and spawns
// `rmabench __worker` on them as fds 3 and 4, exactly as the forked ranks get theirs. The
// bootstrap socket first carries one line, "kv TOKEN RANK", so that rank 0 knows whose it
// is; the control channel is known by the rank's own hello. The agent reaps its ranks and
// says how each ended (RankExited); it kills one on StopRank and removes a case's shared
// segments on Sweep. A rank's crash is thus the agent's report, not the end of the job.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "launcher/control.hpp"
#include "launcher/poll_set.hpp"
#include "launcher/rank.hpp"

namespace harness::launcher {

class RankAgent {
 public:
  using Emit = std::function<void(const Message&)>;
  // `self_exe`: the rmabench the ranks run; `endpoint`: rank 0's (control_socket.hpp);
  // `emit`: where its RankExited reports go.
  RankAgent(std::string self_exe, std::string endpoint, Emit emit);
  ~RankAgent();  // kills and reaps what still runs
  RankAgent(const RankAgent&) = delete;
  RankAgent& operator=(const RankAgent&) = delete;

  // StartRank, StopRank or Sweep; anything else is ignored.
  void handle(const Message& m);
  // Its ranks' pidfds, each reaped and reported when it ends.
  void add_polls(PollSet& polls);
  bool running() const { return !workers_.empty(); }

 private:
  struct Worker {
    int rank;
    pid_t pid;
    Fd pidfd;
  };
  void start(const StartRank& m);
  void stop(int rank);
  void reap(std::size_t i, bool wait);

  std::string self_exe_, endpoint_;
  Emit emit_;
  std::vector<Worker> workers_;
};

// A task other than 0: serves rank 0 on `channel` until it says Quit or goes away. Returns
// the task's exit code.
int serve_as_agent(ControlChannel& channel, RankAgent& agent);

}  // namespace harness::launcher
