// verdict.hpp — the one place the rule lives that turns how a case's ranks ended into its
// verdict: interrupted, crash, deadlock, timeout, or the ranks' own merged outcome, and what a
// case that expects a deadlock makes of that. The case watcher (case_watcher.cpp) describes
// the end it saw as a CaseEnd and calls judge(), whichever way the ranks started; it decides
// no verdict itself.
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
  bool interrupted = false;   // the run was stopped by SIGINT/SIGTERM
  bool deadline_hit = false;  // the case's time limit passed before it ended
  // Every rank said hello: the time limit counts from then. A deadline hit before that is
  // the start limit's (start_limit_s), not the case's.
  bool started = true;
  double start_limit_s = 0;
  std::vector<RankEnd> ranks;  // in the order their crashes are reported
  // Each rank's state, kept in the result of a case that did not complete.
  nlohmann::json rank_states;
  // Folds the ranks' own results into the result (launcher::merge_rank_results and whatever
  // the path adds to it).
  std::function<void(reports::CaseResult&)> merge;
};

// Fills `result` (which holds base_result(spec)) with the case's verdict: its status, reason,
// failures and rank states.
void judge(const suite::CaseSpec& spec, const CaseEnd& end, reports::CaseResult& result);

}  // namespace harness::launcher
