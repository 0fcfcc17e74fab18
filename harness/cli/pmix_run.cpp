// `rmabench run` started by an external launcher that provides PMIx (mpirun, srun
// --mpi=pmix): this process is one rank of every case. Each case gets a runtime bootstrapped
// through PMIx (keys prefixed by the case, so cases never see each other's), runs in this
// process on the job's first `ranks` ranks (the others follow its PMIx fences; a case that
// needs more ranks than the job has is skipped), and publishes its rank result; rank 0
// merges them. The case loop, the console and the report are the run pipeline's
// (cli/pipeline.hpp): rank 0 prints and writes, rewriting the report after every case and
// writing each case as a crash before it runs, since a launcher that sees a rank die kills
// the whole job at once. There is no parent to watch deadlines: past a case's deadline the
// ranks judge it themselves (launcher/pmix_deadline.hpp) and the job ends with rank 0's
// report holding that case.
#include <unistd.h>

#include <chrono>
#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "cli/provider_check.hpp"
#include "launcher/launch_env.hpp"
#include "launcher/pmix_deadline.hpp"
#include "launcher/rank_results.hpp"
#include "launcher/topology.hpp"
#include "rma/bootstrap.hpp"
#include "worker/case_runner.hpp"
#include "worker/state_board.hpp"
#include "worker/worker.hpp"

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

reports::CaseResult skipped(const suite::CaseSpec& spec, std::string reason) {
  reports::CaseResult r = launcher::base_result(spec);
  r.status = reports::Verdict::skip;
  r.reason = std::move(reason);
  return r;
}

// One rank's part of every case, and rank 0's merge of the ranks' results.
class PmixExecutor final : public CaseExecutor {
 public:
  PmixExecutor(rma::bootstrap::Bootstrap& pmix, std::string job)
      : pmix_(pmix), job_(std::move(job)), rank_(pmix.rank()), size_(pmix.size()),
        deadline_(
            pmix, [this] { return board_.snapshot(rank_); },
            [this](const reports::CaseResult& r) { return end_ ? end_(r) : kExitFailed; }) {}

  bool reports() const override { return rank_ == 0; }
  bool stops_between_cases() const override { return false; }
  bool writes_after_each_case() const override { return true; }
  void on_run_end(RunEnd end) override { end_ = std::move(end); }

  std::optional<reports::CaseResult> pending(const suite::CaseSpec& spec) const override {
    if (!runs(spec)) return std::nullopt;
    reports::CaseResult r = launcher::base_result(spec);
    r.status = reports::Verdict::crash;
    r.reason = "the job ended during this case: a rank died (exit or signal) and the launcher "
               "killed the others, or the job was cancelled; the launcher's output says which";
    r.failures.push_back({-1, "launcher", r.reason});
    return r;
  }

  Executed execute(const suite::CaseSpec& case_spec) override {
    Executed done;
    if (case_spec.ranks > size_) {
      done.outcome.result = skipped(case_spec, "needs " + std::to_string(case_spec.ranks) +
                                                   " ranks; the launcher started " +
                                                   std::to_string(size_));
      return done;
    }
    if (case_spec.expected == suite::Expected::deadlock) {
      // Judging a deadlock ends the job (pmix_deadline.hpp): the cases after it would not run.
      done.outcome.result =
          skipped(case_spec, "a must-deadlock case needs the rmabench launcher to watch it");
      return done;
    }
    suite::CaseSpec spec = case_spec;
    spec.name_prefix = "rmabench." + job_ + "." + std::to_string(index_);
    const std::string prefix = "c" + std::to_string(index_++) + ".";
    const auto t0 = std::chrono::steady_clock::now();
    deadline_.arm(spec, prefix);
    CaseBootstrap case_boot(pmix_, prefix, spec.ranks);
    done.outcome.result = launcher::base_result(spec);
    if (rank_ >= spec.ranks) {  // not in this case (never rank 0, the one that reports)
      if (!case_boot.follow()) throw launcher::LaunchError("a PMIx fence of the case failed");
      deadline_.disarm();
      return done;
    }
    const json mine = run_here(spec, case_boot);
    // A rank that ended early (skip, fail, error) may have left its peers in a barrier: then
    // the fence below never completes and the deadline judges the case. Once it completes,
    // every rank has left the case, and the next one can run.
    deadline_.finished(mine.value("status", "a result"));
    must(pmix_.put(prefix + "result." + std::to_string(rank_), mine.dump()));
    if (!case_boot.end_fence()) throw launcher::LaunchError("the PMIx fence after the case failed");
    deadline_.disarm();
    if (rank_ == 0) {
      std::vector<json> results;
      for (int r = 0; r < spec.ranks; ++r) {
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
  bool runs(const suite::CaseSpec& spec) const {
    return spec.ranks <= size_ && spec.expected != suite::Expected::deadlock;
  }

  // This rank's part of the case, under its own implementation.
  json run_here(const suite::CaseSpec& spec, rma::bootstrap::Bootstrap& case_boot) {
    auto im = worker::make_implementation(spec, case_boot);
    if (!im)
      return {{"rank", rank_}, {"status", "error"},
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
  RunEnd end_;
  launcher::PmixDeadline deadline_;  // last: its thread reads the members above
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
  RunPlan plan;
  plan.expansion = expand_input(args);
  plan.command = args.command_line + "  (under PMIx, " + std::to_string(size) + " ranks)";
  plan.options = {{"input", args.input}, {"launcher", "pmix"}, {"ranks", size}};
  plan.options.update(launcher::launch_env());  // "slurm", job, step, nodes
  plan.topology = launcher::Topology().summary();

  // --provider, checked by every rank on its own host before any case (as the launcher's
  // parent does, provider_check.hpp); the ranks agree on one verdict, so all stop or none.
  std::string refused;
  try {
    check_provider(args.overrides.provider, plan.expansion, args.input, libfabric_providers());
  } catch (const suite::UsageError& e) {
    refused = e.what();
  }
  must(pmix.put("rmabench.provider." + std::to_string(pmix.rank()), "!" + refused));

  // One name for this job's shared segments, from rank 0's pid: every rank agrees on it.
  std::string job = "pmix" + std::to_string(::getpid());
  if (pmix.rank() == 0) must(pmix.put("rmabench.job.0", job));
  if (!pmix.fence()) return kExitRunError;
  if (auto j = pmix.get("rmabench.job.0"); j) job = j.value();
  if (pmix.rank() == 0) {
    std::string verdict;
    for (int r = 0; r < size && verdict.empty(); ++r) {
      auto v = pmix.get("rmabench.provider." + std::to_string(r));
      if (!v) return kExitRunError;
      if (v.value().size() > 1)
        verdict = (r == 0 ? "" : "rank " + std::to_string(r) + ": ") + v.value().substr(1);
    }
    must(pmix.put("rmabench.provider_verdict.0", "!" + verdict));
  }
  if (!pmix.fence()) return kExitRunError;
  auto verdict = pmix.get("rmabench.provider_verdict.0");
  if (!verdict) return kExitRunError;
  if (verdict.value().size() > 1) {
    if (pmix.rank() != 0) return kExitUsage;  // rank 0 says why, once
    throw suite::UsageError(verdict.value().substr(1));
  }

  PmixExecutor executor(pmix, job);
  return run_pipeline(args, plan, executor);
}

}  // namespace harness::cli
