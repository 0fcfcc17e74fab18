// verdict_test.cpp — the one verdict rule (verdict.hpp) on ends made up by hand, as the case
// watcher and the PMIx deadline describe them.
#include "launcher/verdict.hpp"

#include <gtest/gtest.h>

namespace harness::launcher {
namespace {

using nlohmann::json;
using reports::Verdict;

suite::CaseSpec spec_expecting(const std::string& expected) {
  suite::CaseSpec s;
  s.ranks = 2;
  s.timeout_s = 10;
  s.expected = *suite::parse_expected(expected);
  return s;
}

RankEnd in_case(int rank, json state) {
  RankEnd e;
  e.rank = rank;
  e.in_case = true;
  e.state = std::move(state);
  return e;
}

const json kBlocked = {{"blocked", true}, {"since_s", 5.0}, {"call", "win_lock"}};
const json kComputing = {{"blocked", false}};

reports::CaseResult judged(const suite::CaseSpec& spec, const CaseEnd& end) {
  reports::CaseResult r;
  judge(spec, end, r);
  return r;
}

// Merges as merge_rank_results does: a status of the ranks' own unless the verdict is
// already one of the launcher's.
bool launcher_verdict(const reports::CaseResult& r) {
  return r.status == Verdict::crash || r.status == Verdict::deadlock ||
         r.status == Verdict::timeout;
}
void rank_failed(reports::CaseResult& r) {
  r.failures.push_back({1, "script", "peer gone"});
  if (!launcher_verdict(r)) r.status = Verdict::fail;
}
void all_passed(reports::CaseResult& r) {
  if (!launcher_verdict(r)) r.status = Verdict::pass;
}

TEST(Verdict, EveryRankBlockedAtTheDeadlineIsADeadlock) {
  CaseEnd end;
  end.deadline_hit = true;
  end.ranks = {in_case(0, kBlocked), in_case(1, kBlocked)};
  const auto r = judged(spec_expecting("pass"), end);
  EXPECT_EQ(r.status, Verdict::deadlock);
  EXPECT_EQ(r.reason, "every rank is blocked in a library call after 10 s");
}

TEST(Verdict, OneRankComputingAtTheDeadlineIsATimeout) {
  CaseEnd end;
  end.deadline_hit = true;
  end.ranks = {in_case(0, kBlocked), in_case(1, kComputing)};
  const auto r = judged(spec_expecting("pass"), end);
  EXPECT_EQ(r.status, Verdict::timeout);
  EXPECT_EQ(r.reason, "not finished after 10 s");
}

TEST(Verdict, RanksThatNeverAllStartedAreATimeoutOfTheStartLimit) {
  CaseEnd end;
  end.deadline_hit = true;
  end.started = false;
  end.start_limit_s = 60;
  // A rank that is up may be blocked (in its bootstrap, waiting for the others): no deadlock.
  end.ranks = {in_case(0, kBlocked), in_case(1, json())};
  const auto r = judged(spec_expecting("deadlock"), end);
  EXPECT_EQ(r.status, Verdict::timeout);
  EXPECT_EQ(r.reason, "not every rank started (said hello) within 60 s");
}

TEST(Verdict, ABriefWaitIsNoDeadlock) {
  CaseEnd end;
  end.deadline_hit = true;
  end.ranks = {in_case(0, kBlocked), in_case(1, {{"blocked", true}, {"since_s", 0.01}})};
  EXPECT_EQ(judged(spec_expecting("pass"), end).status, Verdict::timeout);
}

TEST(Verdict, RanksThatFinishedDoNotCountAtTheDeadline) {
  CaseEnd end;
  end.deadline_hit = true;
  RankEnd done;
  done.rank = 1;
  end.ranks = {in_case(0, kBlocked), done};
  EXPECT_EQ(judged(spec_expecting("pass"), end).status, Verdict::deadlock);
  end.ranks = {done};
  EXPECT_EQ(judged(spec_expecting("pass"), end).status, Verdict::timeout);
}

TEST(Verdict, AnExpectedDeadlockKeepsNoRankFailures) {
  CaseEnd end;
  end.deadline_hit = true;
  end.ranks = {in_case(0, kBlocked), in_case(1, kBlocked)};
  end.merge = rank_failed;
  const auto r = judged(spec_expecting("deadlock"), end);
  EXPECT_EQ(r.status, Verdict::deadlock);
  EXPECT_TRUE(r.failures.empty());
  // Not expected: the same failure stays.
  EXPECT_EQ(judged(spec_expecting("pass"), end).failures.size(), 1u);
}

TEST(Verdict, AnExpectedDeadlockThatCompletedFails) {
  CaseEnd end;
  end.merge = all_passed;
  const auto r = judged(spec_expecting("deadlock"), end);
  EXPECT_EQ(r.status, Verdict::fail);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].message, "expected a deadlock, the case completed");
  EXPECT_EQ(judged(spec_expecting("pass"), end).status, Verdict::pass);
}

TEST(Verdict, ACrashWinsOverTheDeadlineAndNamesTheFirstRankInOrder) {
  CaseEnd end;
  end.deadline_hit = true;
  RankEnd a = in_case(1, kBlocked), b = in_case(0, kBlocked);
  a.crash = "was killed by SIGSEGV";
  b.crash = "exited with code 3";
  b.crash_detail = " after its result";
  end.ranks = {a, b};
  end.rank_states = json::array({{{"rank", 0}}, {{"rank", 1}}});
  const auto r = judged(spec_expecting("pass"), end);
  EXPECT_EQ(r.status, Verdict::crash);
  EXPECT_EQ(r.reason, "rank 1 was killed by SIGSEGV");
  ASSERT_EQ(r.failures.size(), 2u);
  EXPECT_EQ(r.failures[1].message, "rank 0 exited with code 3 after its result");
  EXPECT_EQ(r.rank_states.size(), 2u);
}

TEST(Verdict, AStopWinsOverEverything) {
  CaseEnd end;
  end.interrupted = true;
  end.deadline_hit = true;
  RankEnd a = in_case(0, kBlocked);
  a.crash = "was killed by SIGTERM";
  end.ranks = {a};
  bool merged = false;
  end.merge = [&](reports::CaseResult&) { merged = true; };
  const auto r = judged(spec_expecting("pass"), end);
  EXPECT_EQ(r.status, Verdict::interrupted);
  EXPECT_EQ(r.reason, "the run was stopped by a signal");
  EXPECT_FALSE(merged);
}

TEST(Verdict, ADeadlineKeepsTheRanksResults) {
  CaseEnd end;
  end.deadline_hit = true;
  end.ranks = {in_case(0, kComputing)};
  end.merge = rank_failed;
  EXPECT_EQ(judged(spec_expecting("pass"), end).failures.size(), 1u);
}

}  // namespace
}  // namespace harness::launcher
