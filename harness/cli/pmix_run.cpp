// `rmabench run` started by an external launcher that provides PMIx (mpirun, srun
// --mpi=pmix): this process is one rank of every case. Each case gets a runtime bootstrapped
// through PMIx (keys prefixed by the case, so cases never see each other's), runs in this
// process, and publishes its rank result; rank 0 merges them, prints the case line and writes
// the one report. A case runs on the job's first `ranks` ranks (the others follow its PMIx
// fences); one that needs more ranks than the job has is skipped. There is no parent to watch
// deadlines: past a case's deadline the ranks judge it themselves (launcher/pmix_deadline.hpp)
// and the job ends with rank 0's report holding that case.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <thread>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "launcher/launch_env.hpp"
#include "launcher/pmix_deadline.hpp"
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

// What one case's runtime sees: keys carrying the case's prefix, the case's rank count. A
// PMIx fence spans the whole job, so the ranks past that count join each fence of the case
// too: before each, rank 0 publishes whether it is one of the case's ("case") or the one
// after the results ("end"), and follow() goes through fences until the end one.
class CaseBootstrap final : public rma::bootstrap::Bootstrap {
 public:
  CaseBootstrap(rma::bootstrap::Bootstrap& inner, std::string prefix, int size)
      : inner_(inner), prefix_(std::move(prefix)), size_(size) {}
  int rank() const override { return inner_.rank(); }
  int size() const override { return size_; }
  std::string_view kind() const override { return inner_.kind(); }
  rma::Status put(const std::string& k, const std::string& v) override {
    return inner_.put(prefix_ + k, v);
  }
  rma::Result<std::string> get(const std::string& k) override { return inner_.get(prefix_ + k); }
  rma::Status fence() override { return fence_as("case"); }
  // The fence after every rank of the case has put its result.
  rma::Status end_fence() { return fence_as("end"); }
  // A rank outside the case.
  rma::Status follow() {
    for (;;) {
      const std::string key = sync_key();
      if (auto s = inner_.fence(); !s) return s;
      auto v = inner_.get(key);
      if (!v) return v.status();
      if (v.value() == "end") return rma::Status::ok();
    }
  }

 private:
  std::string sync_key() { return prefix_ + "fence" + std::to_string(fences_++) + ".0"; }
  rma::Status fence_as(const char* what) {
    const std::string key = sync_key();
    if (inner_.rank() == 0)
      if (auto s = inner_.put(key, what); !s) return s;
    return inner_.fence();
  }
  rma::bootstrap::Bootstrap& inner_;
  std::string prefix_;
  int size_;
  int fences_ = 0;
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
  report.context.options.update(launcher::launch_env());  // "slurm", job, step, nodes
  reports::ConsoleWriter console(std::cout, rank == 0 && ::isatty(STDOUT_FILENO));

  worker::StateBoard board;
  auto write_reports = [&] {
    if (rank != 0 || args.report_dir.empty()) return;
    report.finish();
    reports::write_report_dir(report, args.report_dir, args.formats);
  };
  // Before a case runs, rank 0 writes the report with that case as a crash: a rank that
  // dies mid-case makes the launcher kill the whole job at once (Slurm's PMIx plugin sends
  // SIGKILL to the step), and then, as after scancel, this is what the report says. The case's real result
  // replaces it.
  auto write_pending = [&](const suite::CaseSpec& spec) {
    if (rank != 0 || args.report_dir.empty()) return;
    reports::CaseResult res = launcher::base_result(spec);
    res.status = reports::Status::crash;
    res.reason = "the job ended during this case: a rank died (exit or signal) and the launcher "
                 "killed the others, or the job was cancelled; the launcher's output says which";
    res.failures.push_back({-1, "launcher", res.reason});
    report.cases.push_back(res);
    write_reports();
    report.cases.pop_back();
  };
  std::size_t done = 0;  // cases dealt with
  // Past a deadline (on rank 0): the judged case ends the report and the job.
  launcher::PmixDeadline deadline(
      pmix, [&] { return board.snapshot(rank); },
      [&](const reports::CaseResult& res) {
        report.cases.push_back(res);
        console.case_line(res);
        if (!res.passed()) console.details(res);
        const std::size_t left = ex.cases.size() - done - 1;
        if (left > 0)
          std::cerr << "rmabench: the job ends here; the " << left
                    << " case(s) after it did not run\n";
        write_reports();
        report.finish();
        console.summary(report);
        return !res.passed() ? kExitFailed : left > 0 ? kExitRunError : kExitOk;
      });

  const auto run_start = std::chrono::steady_clock::now();
  int index = 0;
  for (suite::CaseSpec spec : ex.cases) {
    struct Count {
      std::size_t& n;
      ~Count() { ++n; }
    } count{done};
    if (spec.ranks > size) {
      if (rank == 0) {
        reports::CaseResult res = launcher::base_result(spec);
        res.status = reports::Status::skip;
        res.reason = "needs " + std::to_string(spec.ranks) + " ranks; the launcher started " +
                     std::to_string(size);
        report.cases.push_back(res);
        console.case_line(res);
      }
      continue;
    }
    if (spec.expected == "deadlock") {
      // Judging a deadlock takes a process that watches the ranks from outside.
      if (rank == 0) {
        reports::CaseResult res = launcher::base_result(spec);
        res.status = reports::Status::skip;
        res.reason = "a must-deadlock case needs the rmabench launcher to watch its deadline";
        report.cases.push_back(res);
        console.case_line(res);
      }
      continue;
    }
    spec.name_prefix = "rmabench." + job + "." + std::to_string(index);
    const std::string prefix = "c" + std::to_string(index++) + ".";
    const auto t0 = std::chrono::steady_clock::now();
    write_pending(spec);
    deadline.arm(spec, prefix);
    CaseBootstrap case_boot(pmix, prefix, spec.ranks);
    if (rank >= spec.ranks) {  // not in this case
      if (!case_boot.follow()) return kExitRunError;
      deadline.disarm();
      continue;
    }
    json mine;
    {
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
    // A rank that ended early (skip, fail, error) may have left its peers in a barrier: then
    // the fence below never completes and the deadline judges the case. Once it completes,
    // every rank has left the case, and the next one can run.
    deadline.finished(mine.value("status", "a result"));
    must(pmix.put(prefix + "result." + std::to_string(rank), mine.dump()));
    if (!case_boot.end_fence()) return kExitRunError;
    deadline.disarm();
    if (rank == 0) {
      std::vector<json> results;
      for (int r = 0; r < spec.ranks; ++r) {
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
