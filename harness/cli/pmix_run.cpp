// `rmabench run` started by an external launcher that provides PMIx (mpirun, srun
// --mpi=pmix): this process is one rank of every case. Each case gets a runtime bootstrapped
// through PMIx (keys prefixed by the case, so cases never see each other's), runs in this
// process, and publishes its rank result; rank 0 merges them, prints the case line and writes
// the one report. There is no parent to watch deadlines: a rank past a case's deadline
// prints its state and aborts the job, after rank 0 has written what it had.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <thread>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "launcher/rank_results.hpp"
#include "launcher/topology.hpp"
#include "reports/console_writer.hpp"
#include "reports/report_dir.hpp"
#include "rma/bootstrap.hpp"
#include "rma/runtime.hpp"
#include "version.hpp"
#include "worker/case_runner.hpp"
#include "worker/state_board.hpp"

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
      if (cv_.wait_until(g, deadline_) == std::cv_status::timeout && armed_ && !stop_) {
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

rma::RuntimeConfig runtime_config(const suite::CaseSpec& spec) {
  rma::RuntimeConfig c;
  c.backend = spec.backend;
  c.progress = rma::parse_progress_mode(spec.progress).value_or(rma::ProgressMode::async);
  c.default_path = rma::parse_path(spec.path).value_or(rma::Path::am);
  c.eager_limit = spec.eager_limit;
  c.provider = spec.provider;
  c.name_prefix = spec.name_prefix;
  return c;
}

}  // namespace

int run_under_pmix(RunArgs& args) {
  auto boot = rma::bootstrap::pmix_client();
  if (!boot) {
    std::cerr << "rmabench: " << boot.status().to_string() << "\n";
    return kExitRunError;
  }
  rma::bootstrap::Bootstrap& pmix = *boot.value();
  const int rank = pmix.rank();
  const int size = pmix.size();
  for (const auto& kv : args.options) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw suite::UsageError("-o " + kv + ": expected name=value");
    args.overrides.options[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  // The launcher decided how many ranks there are.
  args.overrides.ranks = size;
  suite::Expansion ex = suite::expand(args.target, args.overrides);

  // One name for this job's shared segments, from rank 0's pid: every rank agrees on it.
  std::string job = "pmix" + std::to_string(::getpid());
  if (rank == 0) must(pmix.put("rmabench.job.0", job));
  if (!pmix.fence()) return kExitRunError;
  if (auto j = pmix.get("rmabench.job.0"); j) job = j.value();

  launcher::Topology topology;
  reports::Report report;
  report.context.rmabench_version = rmabench_version();
  report.context.git_revision = git_revision();
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  report.context.host = host;
  report.context.command = args.command_line + "  (under PMIx, " + std::to_string(size) + " ranks)";
  report.context.topology = topology.summary();
  report.context.options = {{"target", args.target}, {"launcher", "pmix"}, {"ranks", size}};
  reports::ConsoleWriter console(std::cout, rank == 0 && ::isatty(STDOUT_FILENO));

  worker::StateBoard board;
  Watchdog dog(board, rank);
  auto write_reports = [&] {
    if (rank != 0 || args.report_dir.empty()) return;
    report.finish();
    reports::write_report_dir(report, args.report_dir, args.formats);
  };

  const auto run_start = std::chrono::steady_clock::now();
  int index = 0;
  for (suite::CaseSpec spec : ex.cases) {
    if (spec.expected == "deadlock") {
      // Judging a deadlock takes a process that watches the ranks from outside.
      if (rank == 0) {
        reports::CaseResult res = launcher::base_result(spec);
        res.status = reports::Verdict::skip;
        res.reason = "a must-deadlock case needs the rmabench launcher to watch its deadline";
        report.cases.push_back(res);
        console.case_line(res);
      }
      continue;
    }
    spec.name_prefix = "rmabench." + job + "." + std::to_string(index);
    const std::string prefix = "c" + std::to_string(index++) + ".";
    const auto t0 = std::chrono::steady_clock::now();
    dog.arm(spec.timeout_s);
    json mine;
    {
      PrefixedBootstrap case_boot(pmix, prefix);
      auto rt = rma::Runtime::create(runtime_config(spec), case_boot);
      if (!rt) {
        mine = {{"t", "result"}, {"rank", rank}, {"status", "error"},
                {"failures", {{{"where", "runtime"}, {"message", rt.status().to_string()}}}}};
      } else {
        // Logs go nowhere in this mode but the result; a control channel on /dev/null.
        launcher::ControlChannel quiet(::dup(STDERR_FILENO));
        mine = worker::run_case_script(spec, *rt.value(), quiet, board);
        board.detach();
      }
    }
    // A rank that ended early left its peers in a barrier: the job cannot go on, and the
    // fence below only completes if they ended too (the watchdog ends it otherwise).
    const bool early = mine.value("early", false);
    must(pmix.put(prefix + "result." + std::to_string(rank), mine.dump()));
    if (!pmix.fence()) return kExitRunError;
    dog.disarm();
    if (rank == 0) {
      std::vector<json> results;
      for (int r = 0; r < size; ++r) {
        auto v = pmix.get(prefix + "result." + std::to_string(r));
        results.push_back(v ? json::parse(v.value(), nullptr, false) : json());
      }
      reports::CaseResult res = launcher::base_result(spec);
      launcher::merge_rank_results(results, res);
      res.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      report.cases.push_back(res);
      console.case_line(res);
      if (!res.passed() && !res.skipped()) console.details(res);
      write_reports();
    }
    if (early) break;
  }
  if (rank != 0) return kExitOk;
  report.summary.duration_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
  write_reports();
  report.finish();
  console.summary(report);
  return report.summary.failed > 0 ? kExitFailed : kExitOk;
}

}  // namespace harness::cli
