// starter_pmix.cpp — one rank's part of every case under a PMIx launcher (starter_pmix.hpp):
// the case's own bootstrap over the job's fences, the result exchange, rank 0's merge.
#include "launcher/starter_pmix.hpp"

#include <chrono>
#include <stdexcept>

#include "launcher/rank_results.hpp"
#include "launcher/verdict.hpp"

namespace harness::launcher {
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

reports::CaseResult skip_with(const suite::CaseSpec& spec, std::string reason) {
  reports::CaseResult r = base_result(spec);
  r.status = reports::Verdict::skip;
  r.reason = std::move(reason);
  return r;
}

}  // namespace

PmixStarter::PmixStarter(rma::bootstrap::Bootstrap& pmix, std::string job, RunHere run_here,
                         std::function<json()> snapshot,
                         std::function<int(const reports::CaseResult&)> verdict)
    : pmix_(pmix),
      job_(std::move(job)),
      run_here_(std::move(run_here)),
      rank_(pmix.rank()),
      size_(pmix.size()),
      deadline_(pmix, std::move(snapshot), std::move(verdict)) {}

std::optional<reports::CaseResult> PmixStarter::pending(const suite::CaseSpec& spec) const {
  if (!runs(spec)) return std::nullopt;
  reports::CaseResult r = base_result(spec);
  r.status = reports::Verdict::crash;
  r.reason =
      "the job ended during this case: a rank died (exit or signal) and the launcher "
      "killed the others, or the job was cancelled; the launcher's output says which";
  r.failures.push_back({-1, "launcher", r.reason});
  return r;
}

std::optional<reports::CaseResult> PmixStarter::skipped(const suite::CaseSpec& case_spec) const {
  if (case_spec.ranks > size_)
    return skip_with(case_spec, "needs " + std::to_string(case_spec.ranks) +
                                    " ranks; the launcher started " + std::to_string(size_));
  if (case_spec.expected == suite::Expected::deadlock) {
    // Judging a deadlock ends the job (pmix_deadline.hpp): the cases after it would not run.
    return skip_with(case_spec, "a must-deadlock case needs the rmabench launcher to watch it");
  }
  return std::nullopt;
}

CaseOutcome PmixStarter::run(const suite::CaseSpec& case_spec) {
  CaseOutcome done;
  if (auto skip = skipped(case_spec)) {
    done.result = *skip;
    return done;
  }
  suite::CaseSpec spec = case_spec;
  spec.name_prefix = "rmabench." + job_ + "." + std::to_string(index_);
  const std::string prefix = "c" + std::to_string(index_++) + ".";
  const auto t0 = std::chrono::steady_clock::now();
  deadline_.arm(spec, prefix);
  CaseBootstrap case_boot(pmix_, prefix, spec.ranks);
  done.result = base_result(spec);
  if (rank_ >= spec.ranks) {  // not in this case (never rank 0, the one that reports)
    if (!case_boot.follow()) throw LaunchError("a PMIx fence of the case failed");
    deadline_.disarm();
    return done;
  }
  const json mine = run_here_(spec, case_boot);
  // A rank that ended early (skip, fail, error) may have left its peers in a barrier: then
  // the fence below never completes and the deadline judges the case. Once it completes,
  // every rank has left the case, and the next one can run.
  deadline_.finished(mine.value("status", "a result"));
  must(pmix_.put(prefix + "result." + std::to_string(rank_), mine.dump()));
  if (!case_boot.end_fence()) throw LaunchError("the PMIx fence after the case failed");
  deadline_.disarm();
  if (rank_ == 0) {
    done.result = merged(spec, prefix);
    done.result.duration_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return done;
}

// Rank 0, once every rank of the case has put its result: the case ended by itself.
reports::CaseResult PmixStarter::merged(const suite::CaseSpec& spec, const std::string& prefix) {
  std::vector<json> results;
  for (int r = 0; r < spec.ranks; ++r) {
    auto v = pmix_.get(prefix + "result." + std::to_string(r));
    results.push_back(v ? json::parse(v.value(), nullptr, false) : json());
  }
  reports::CaseResult result = base_result(spec);
  CaseEnd end;
  end.merge = [&results](reports::CaseResult& out) { merge_rank_results(results, out); };
  judge(spec, end, result);
  return result;
}

}  // namespace harness::launcher
