// starter_pmix.hpp — ranks started by an external launcher that provides PMIx (mpirun, srun
// --mpi=pmix). This process is then itself one rank of every case, so there is no parent to
// fork, watch or kill ranks: each case gets a bootstrap of its own over the job's PMIx (keys
// prefixed by the case, so cases never see each other's), runs on the job's first `ranks`
// ranks while the others follow its fences, and publishes its rank's result for rank 0 to
// merge. A case's deadline is kept by the ranks themselves (pmix_deadline.hpp); both its
// verdict and the merged one come from the one rule (verdict.hpp).
//
// What a rank runs is given by the caller (the worker's script runner): the launcher layer
// knows no worker.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "launcher/launcher.hpp"
#include "launcher/pmix_deadline.hpp"
#include "reports/model.hpp"
#include "rma/bootstrap.hpp"
#include "suite/case_spec.hpp"

namespace harness::launcher {

class PmixStarter {
 public:
  // This rank's part of a case, on a runtime bootstrapped through `boot`: its result message.
  using RunHere = std::function<nlohmann::json(const suite::CaseSpec&, rma::bootstrap::Bootstrap&)>;

  // `job`: the name every rank agreed on for the job's shared segments. `snapshot` and
  // `verdict` are the deadline's (PmixDeadline).
  PmixStarter(rma::bootstrap::Bootstrap& pmix, std::string job, RunHere run_here,
              std::function<nlohmann::json()> snapshot,
              std::function<int(const reports::CaseResult&)> verdict);

  int rank() const { return rank_; }
  // What the case's report holds while it runs: a crash, which it stays if the job dies
  // during the case; nullopt for a case that does not run this way.
  std::optional<reports::CaseResult> pending(const suite::CaseSpec& spec) const;
  // Runs this rank's part of the case; on rank 0 the outcome holds the case's result.
  CaseOutcome run(const suite::CaseSpec& case_spec);

 private:
  bool runs(const suite::CaseSpec& spec) const {
    return spec.ranks <= size_ && spec.expected != suite::Expected::deadlock;
  }
  std::optional<reports::CaseResult> skipped(const suite::CaseSpec& spec) const;
  reports::CaseResult merged(const suite::CaseSpec& spec, const std::string& prefix);

  rma::bootstrap::Bootstrap& pmix_;
  std::string job_;
  RunHere run_here_;
  int rank_, size_;
  int index_ = 0;
  PmixDeadline deadline_;  // last: its thread reads the members above
};

}  // namespace harness::launcher
