// `rmabench run` started by an external launcher that provides PMIx (mpirun, srun
// --mpi=pmix): this process is one rank of every case. Each case gets a runtime bootstrapped
// through PMIx (keys prefixed by the case, so cases never see each other's), runs in this
// process, and publishes its rank result; rank 0 merges them. The case loop, the console and
// the report are the run pipeline's (cli/pipeline.hpp): rank 0 prints and writes, rewriting
// the report after every case. There is no parent to watch deadlines: a rank past a case's
// deadline, or asked to stop (SIGINT/SIGTERM), prints its state and ends the job, after
// rank 0 has written what it had.
#include <unistd.h>

#include <chrono>
#include <algorithm>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "launcher/rank_results.hpp"
#include "launcher/topology.hpp"
#include "rma/bootstrap.hpp"
#include "worker/case_runner.hpp"
#include "worker/state_board.hpp"
#include "worker/worker.hpp"

namespace harness::cli {
namespace {

using nlohmann::json;

// Every key of one case carries the case's prefix.
class PrefixedBootstrap final : public rma::bootstrap::Bootstrap {
 public:
  PrefixedBootstrap(rma::bootstrap::Bootstrap& inner, std::string prefix)
      : inner_(inner), prefix_(std::move(prefix)) {}
  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  std::string_view kind() const override { return inner_.kind(); }
  rma::Status put(const std::string& k, const std::string& v) override {
    return inner_.put(prefix_ + k, v);
  }
  rma::Result<std::string> get(const std::string& k) override { return inner_.get(prefix_ + k); }
  rma::Status fence() override { return inner_.fence(); }

 private:
  rma::bootstrap::Bootstrap& inner_;
  std::string prefix_;
};

// Aborts the rank when a case outlives its deadline, after saying what it was doing.
class Watchdog {
 public:
  explicit Watchdog(worker::StateBoard& board, int rank) : board_(board), rank_(rank) {
    thread_ = std::thread([this] { run(); });
  }
  ~Watchdog() {
    {
      std::lock_guard g(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void arm(double seconds) {
    std::lock_guard g(mu_);
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(seconds));
    armed_ = true;
    cv_.notify_all();
  }
  void disarm() {
    std::lock_guard g(mu_);
    armed_ = false;
  }

 private:
  void run() {
    std::unique_lock g(mu_);
    while (!stop_) {
      if (!armed_) {
        cv_.wait(g);
        continue;
      }
      // Wakes now and then for a stop request: a signal handler cannot notify a condition.
      const auto poll = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
      cv_.wait_until(g, std::min(deadline_, poll));
      if (!armed_ || stop_) continue;
      if (launcher::stop_requested()) {
        std::cerr << "rmabench: rank " << rank_ << ": stopped by a signal; state: "
                  << board_.snapshot(rank_).dump() << "\n";
        std::_Exit(130);
      }
      if (std::chrono::steady_clock::now() >= deadline_) {
        std::cerr << "rmabench: rank " << rank_ << ": case deadline passed; state: "
                  << board_.snapshot(rank_).dump() << "\n";
        std::_Exit(124);
      }
    }
  }
  worker::StateBoard& board_;
  int rank_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::chrono::steady_clock::time_point deadline_;
  bool armed_ = false;
  bool stop_ = false;
  std::thread thread_;
};

void must(const rma::Status& s) {
  if (!s) throw std::runtime_error(s.to_string());
}

// One rank's part of every case, and rank 0's merge of the ranks' results.
class PmixExecutor final : public CaseExecutor {
 public:
  PmixExecutor(rma::bootstrap::Bootstrap& pmix, std::string job)
      : pmix_(pmix), job_(std::move(job)), rank_(pmix.rank()), size_(pmix.size()),
        dog_(board_, rank_) {}

  bool reports() const override { return rank_ == 0; }
  bool stops_between_cases() const override { return false; }
  bool writes_after_each_case() const override { return true; }

  Executed execute(const suite::CaseSpec& case_spec) override {
    Executed done;
    if (case_spec.expected == "deadlock") {
      // Judging a deadlock takes a process that watches the ranks from outside.
      done.outcome.result = launcher::base_result(case_spec);
      done.outcome.result.status = reports::Verdict::skip;
      done.outcome.result.reason =
          "a must-deadlock case needs the rmabench launcher to watch its deadline";
      return done;
    }
    suite::CaseSpec spec = case_spec;
    spec.name_prefix = "rmabench." + job_ + "." + std::to_string(index_);
    const std::string prefix = "c" + std::to_string(index_++) + ".";
    const auto t0 = std::chrono::steady_clock::now();
    dog_.arm(spec.timeout_s);
    const json mine = run_here(spec, prefix);
    // A rank that ended early left its peers in a barrier: the job cannot go on, and the
    // fence below only completes if they ended too (the watchdog ends it otherwise).
    done.last = mine.value("early", false);
    must(pmix_.put(prefix + "result." + std::to_string(rank_), mine.dump()));
    if (!pmix_.fence()) throw launcher::LaunchError("the PMIx fence after the case failed");
    dog_.disarm();
    done.outcome.result = launcher::base_result(spec);
    if (rank_ == 0) {
      std::vector<json> results;
      for (int r = 0; r < size_; ++r) {
        auto v = pmix_.get(prefix + "result." + std::to_string(r));
        results.push_back(v ? json::parse(v.value(), nullptr, false) : json());
      }
      launcher::merge_rank_results(results, done.outcome.result);
      done.outcome.result.duration_s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    return done;
  }

 private:
  // This rank's part of the case, under its own runtime.
  json run_here(const suite::CaseSpec& spec, const std::string& prefix) {
    PrefixedBootstrap case_boot(pmix_, prefix);
    auto im = worker::make_implementation(spec, case_boot);
    if (!im)
      return {{"t", "result"}, {"rank", rank_}, {"status", "error"},
              {"failures", {{{"where", "runtime"}, {"message", im.status().to_string()}}}}};
    // Logs go nowhere in this mode but the result; a control channel on /dev/null.
    launcher::ControlChannel quiet(::dup(STDERR_FILENO));
    json mine = worker::run_case_script(spec, *im.value(), quiet, board_);
    board_.detach();
    return mine;
  }

  rma::bootstrap::Bootstrap& pmix_;
  std::string job_;
  int rank_, size_;
  int index_ = 0;
  worker::StateBoard board_;
  Watchdog dog_;
};

}  // namespace

int run_under_pmix(RunArgs& args) {
  auto boot = rma::bootstrap::pmix_client();
  if (!boot) {
    std::cerr << "rmabench: " << boot.status().to_string() << "\n";
    return kExitRunError;
  }
  rma::bootstrap::Bootstrap& pmix = *boot.value();
  const int size = pmix.size();
  // The launcher decided how many ranks there are.
  args.overrides.ranks = size;
  RunPlan plan;
  plan.expansion = expand_input(args);
  plan.command = args.command_line + "  (under PMIx, " + std::to_string(size) + " ranks)";
  plan.options = {{"input", args.input}, {"launcher", "pmix"}, {"ranks", size}};
  plan.topology = launcher::Topology().summary();

  // One name for this job's shared segments, from rank 0's pid: every rank agrees on it.
  std::string job = "pmix" + std::to_string(::getpid());
  if (pmix.rank() == 0) must(pmix.put("rmabench.job.0", job));
  if (!pmix.fence()) return kExitRunError;
  if (auto j = pmix.get("rmabench.job.0"); j) job = j.value();

  PmixExecutor executor(pmix, job);
  return run_pipeline(args, plan, executor);
}

}  // namespace harness::cli
