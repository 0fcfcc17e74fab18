// rank_starter.hpp — the ways a case's ranks start, behind the one interface the case watcher
// (case_watcher.hpp) drives: forked by this process (starter_fork.cpp), started by an MPI
// library's launcher (starter_mpi.cpp), or by the agents of a PMIx job's tasks
// (starter_pmix.cpp). The watcher owns the poll loop, the control
// messages, the deadlines and the verdict, the same for every way; a starter owns what
// differs: starting the ranks, how their ends are seen, stopping them, what they leave
// behind and what their launcher reports. A new way to start ranks is one new file with a
// RankStarter and its factory, chosen in launcher.cpp.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "launcher/launcher.hpp"
#include "launcher/poll_set.hpp"
#include "launcher/rank.hpp"
#include "reports/model.hpp"
#include "rma/kv_server.hpp"
#include "suite/case_spec.hpp"

namespace harness::launcher {

// What the case watcher lends a starter: the case, its ranks, and its handling of their
// messages and ends.
class CaseHost {
 public:
  virtual ~CaseHost() = default;
  virtual const suite::CaseSpec& spec() const = 0;
  virtual std::vector<Rank>& ranks() = 0;
  virtual rma::bootstrap::KvServer& kv() = 0;
  // Waits up to `d` for any event of the case and handles whatever is ready.
  virtual void pump(std::chrono::steady_clock::duration d) = 0;
  // One message from a rank on its control channel (a hello, a result, ...).
  virtual void handle_message(Rank& r, const Message& m) = 0;
  // Reads what the rank's control channel holds; its end is a remote rank's exit.
  virtual void read_control(Rank& r) = 0;
  // The rank has ended, as far as its watcher can tell (RankStarter::on_exit).
  virtual void rank_ended(Rank& r) = 0;
  virtual void add_failure(int rank, std::string message) = 0;
  virtual bool all_exited() const = 0;
};

class RankStarter {
 public:
  virtual ~RankStarter() = default;
  // Why the case cannot run this way ("" when it can): it is then a skip with that reason.
  virtual std::string skip_reason(const suite::CaseSpec&) const { return ""; }
  // Starts the case's ranks; throws LaunchError when it cannot. Fills host.ranks() with one
  // Rank per rank, now or as each connects.
  virtual void start(CaseHost& host) = 0;
  // Descriptors watched beside the ranks' own (a listening socket, the launcher's output).
  virtual void add_polls(PollSet&) {}
  // The rank's pidfd, or a remote rank's control channel, says it ended: records how (exit
  // code, signal) as far as this way of starting can know, and reads what it wrote last.
  virtual void on_exit(Rank& r) = 0;
  // Ends every rank still running and waits until each is gone. `clean`: the case ended by
  // itself, with no deadline passed and no stop requested.
  virtual void stop(bool clean) = 0;
  // Removes what the ranks left behind beyond the case's own named segments.
  virtual void sweep() {}
  // Before the verdict of a case that was not interrupted: what the launcher reported of
  // ranks that ended without saying how.
  virtual void learn_exits() {}
  // The order in which the verdict reports crashes (the first is the case's reason).
  virtual void crash_order(std::vector<const Rank*>&) const {}
  // How a rank that ended by itself, not cleanly, ended ("was killed by SIGSEGV").
  virtual std::string how_ended(const Rank& r) const;
  // Adds the launcher's own account to a result that is no pass or skip.
  virtual void add_report(reports::CaseResult&) const {}
};

std::unique_ptr<RankStarter> fork_starter(const LaunchOptions& options);
std::unique_ptr<RankStarter> mpi_starter(const LaunchOptions& options);
std::unique_ptr<RankStarter> pmix_starter(const LaunchOptions& options);

}  // namespace harness::launcher
