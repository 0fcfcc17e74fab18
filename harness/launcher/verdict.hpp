// verdict.hpp — the one place the rule lives that turns how a case's ranks ended into its
// verdict: interrupted, crash, deadlock, timeout, or the ranks' own merged outcome, and what a
// case that expects a deadlock makes of that. The case watcher (case_watcher.cpp) and the
// deadline of a run under PMIx (pmix_deadline.cpp) each describe the end they saw as a
// CaseEnd and call judge(); neither decides a verdict itself.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/model.hpp"
#include "suite/case_spec.hpp"

namespace harness::launcher {

// One rank at the end of a case, as the rule reads it.
struct RankEnd {
  int rank = 0;
  // How the rank ended by itself when that is a crash ("was killed by SIGSEGV", "gave no state
  // within 3 s of the deadline"); empty when it did not crash. The reason names the first.
  std::string crash;
  // What the rank's failure adds to `crash` and the reason leaves out (" after its result").
  std::string crash_detail;
  // Still running the case when the deadline passed: its state then says whether it is stuck.
  bool in_case = false;
  nlohmann::json state;
};

struct CaseEnd {
  bool interrupted = false;    // the run was stopped by SIGINT/SIGTERM
  bool deadline_hit = false;   // the case's time limit passed before it ended
  std::vector<RankEnd> ranks;  // in the order their crashes are reported
  // A rank that ended the case early (skip, fail, error) and left the others waiting at the
  // deadline, with the status it reported; -1 when none did.
  int early = -1;
  std::string early_status;
  // Each rank's state, kept in the result of a case that did not complete.
  nlohmann::json rank_states;
  // Folds the ranks' own results into the result (launcher::merge_rank_results and whatever
  // the path adds to it).
  std::function<void(reports::CaseResult&)> merge;
  // Whether `merge` also runs for a crash, a deadlock or a timeout. Under PMIx those are
  // judged from the states alone: rank 0 holds only the results of the ranks that finished.
  bool merge_unfinished = true;
};

// Fills `result` (which holds base_result(spec)) with the case's verdict: its status, reason,
// failures and rank states.
void judge(const suite::CaseSpec& spec, const CaseEnd& end, reports::CaseResult& result);

}  // namespace harness::launcher
