// pmix_deadline.hpp — a case's deadline under an external launcher (srun --mpi=pmix, mpirun),
// kept by the ranks themselves since no parent watches them.
//
// Each rank arms it when a case starts. Past the deadline every rank of the case publishes
// its state through PMIx (which call it is blocked in, since when, its windows); rank 0
// reads them, each read bounded (a rank that died never publishes), has the case judged by
// the launcher's one rule (verdict.hpp) — `deadlock` when every rank still in the case is
// blocked in a library call, `timeout` otherwise, `crash` when a rank gave no state at all
// (it ended or is unreachable), or the outcome of a rank that ended the case early (a skip,
// failure or error that left the others waiting for it) — and hands the result to the
// caller to write the report. Then the ranks leave with the exit code rank 0 chose: the
// case's threads are stuck, the job cannot go on. Rank 0 has its verdict within 2 x
// kStateWait of the deadline; the others leave once they have read it, or kVerdictWait after
// that.
//
// A task that dies makes Slurm SIGKILL the whole step, which nothing can catch: for that,
// rank 0 writes each case into the report as a crash before it runs (starter_pmix.hpp).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "reports/model.hpp"
#include "rma/bootstrap.hpp"
#include "suite/case_spec.hpp"

namespace harness::launcher {

class PmixDeadline {
 public:
  static constexpr double kStateWait = 3.0;    // rank 0 waits this long for the states
  static constexpr double kVerdictWait = 5.0;  // the others wait this long for rank 0

  // `snapshot()`: this rank's state now (worker::StateBoard::snapshot). `verdict(result)`:
  // on rank 0, records the judged case (report, console) and returns the job's exit code.
  PmixDeadline(rma::bootstrap::Bootstrap& pmix, std::function<nlohmann::json()> snapshot,
               std::function<int(const reports::CaseResult&)> verdict);
  ~PmixDeadline();
  PmixDeadline(const PmixDeadline&) = delete;
  PmixDeadline& operator=(const PmixDeadline&) = delete;

  // A case starts: ranks 0..spec.ranks-1 run it, its keys begin with `prefix`.
  void arm(const suite::CaseSpec& spec, const std::string& prefix);
  // This rank has its result (`status`): past the deadline it is not among the stuck.
  void finished(const std::string& status);
  // The case is over on this rank; blocks while a verdict is being made (which ends the job).
  void disarm();

 private:
  void run();
  [[noreturn]] void expire();
  // states[r]: rank r's state (null: none came); results[r]: its result, if it had one.
  reports::CaseResult judge_states(const std::vector<nlohmann::json>& states,
                                   const std::vector<nlohmann::json>& results) const;

  rma::bootstrap::Bootstrap& pmix_;
  std::function<nlohmann::json()> snapshot_;
  std::function<int(const reports::CaseResult&)> verdict_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::chrono::steady_clock::time_point deadline_;
  suite::CaseSpec spec_;
  std::string prefix_;
  std::string finished_;  // this rank's status once it has its result
  bool armed_ = false;
  bool stop_ = false;
  std::thread thread_;
};

// Gets `keys` through `boot`, each on a thread of its own, waiting at most `seconds` for all:
// a key nobody will publish (its rank died) stays empty instead of blocking forever. The
// threads still waiting are left behind; call this only on the way out of the process.
std::vector<std::optional<std::string>> get_bounded(rma::bootstrap::Bootstrap& boot,
                                                    const std::vector<std::string>& keys,
                                                    double seconds);

}  // namespace harness::launcher
