// verdict.cpp — the verdict rule (verdict.hpp). A stop request wins over everything, a crash
// over the deadline.
#include "launcher/verdict.hpp"

#include "launcher/rank_results.hpp"

namespace harness::launcher {
namespace {

using reports::Verdict;

std::string after_limit(const suite::CaseSpec& spec) {
  return " after " + std::to_string(static_cast<int>(spec.timeout_s)) + " s";
}

// Every rank that crashed is a failure; the first one named is the case's reason.
bool judge_crashes(const CaseEnd& end, reports::CaseResult& result) {
  for (const RankEnd& r : end.ranks) {
    if (r.crash.empty()) continue;
    result.status = Verdict::crash;
    const std::string who = "rank " + std::to_string(r.rank) + " ";
    if (result.reason.empty()) result.reason = who + r.crash;
    result.failures.push_back({r.rank, "launcher", who + r.crash + r.crash_detail});
  }
  return result.status == Verdict::crash;
}

// Every rank still in the case blocked inside a library call is a deadlock; anything else
// that did not finish in time is a timeout.
void judge_deadline(const suite::CaseSpec& spec, const CaseEnd& end, reports::CaseResult& result) {
  if (!end.started) {
    // The case never began: its time limit had not started, so no rank can be judged stuck.
    result.status = Verdict::timeout;
    result.reason = "not every rank started (said hello) within " +
                    std::to_string(static_cast<int>(end.start_limit_s)) + " s";
    if (end.merge) end.merge(result);
    return;
  }
  int live = 0;
  bool every_blocked = true;
  for (const RankEnd& r : end.ranks) {
    if (!r.in_case) continue;
    ++live;
    if (!stuck_at_deadline(r.state, spec.timeout_s)) every_blocked = false;
  }
  result.status = (live > 0 && every_blocked) ? Verdict::deadlock : Verdict::timeout;
  result.reason =
      std::string(result.status == Verdict::deadlock ? "every rank is blocked in a library call"
                                                     : "not finished") +
      after_limit(spec);
  if (end.merge) end.merge(result);
  if (spec.expected == suite::Expected::deadlock && result.status == reports::Verdict::deadlock)
    result.failures.clear();  // the expected outcome; rank failures are consequences
}

}  // namespace

void judge(const suite::CaseSpec& spec, const CaseEnd& end, reports::CaseResult& result) {
  if (end.interrupted) {
    // What the ranks did after the stop request is its consequence.
    result.status = Verdict::interrupted;
    result.reason = "the run was stopped by a signal";
    result.rank_states = end.rank_states;
    return;
  }
  if (judge_crashes(end, result)) {
    result.rank_states = end.rank_states;
    if (end.merge) end.merge(result);
    return;
  }
  if (end.deadline_hit) {
    result.rank_states = end.rank_states;
    judge_deadline(spec, end, result);
    return;
  }
  if (end.merge) end.merge(result);
  if (spec.expected == suite::Expected::deadlock && result.status == reports::Verdict::pass) {
    result.status = reports::Verdict::fail;
    result.failures.push_back({-1, "launcher", "expected a deadlock, the case completed"});
  }
}

}  // namespace harness::launcher
