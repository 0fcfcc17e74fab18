#include "reports/gate.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "reports/gate_markdown_writer.hpp"
#include "reports/gate_text_writer.hpp"
#include "reports/mann_whitney.hpp"
#include "reports/testing/sample_report.hpp"

namespace reports {
namespace {

using nlohmann::json;

// Google Benchmark entries of one run: an iteration entry per repetition, times in us.
void add_bench(Report& r, const std::string& name, const std::vector<double>& times_us) {
  for (std::size_t i = 0; i < times_us.size(); ++i) {
    r.benchmarks.push_back({{"name", name},
                            {"run_name", name},
                            {"run_type", "iteration"},
                            {"repetitions", times_us.size()},
                            {"repetition_index", i},
                            {"iterations", 100},
                            {"real_time", times_us[i]},
                            {"cpu_time", times_us[i]},
                            {"time_unit", "us"}});
  }
}

Report base() {
  Report r;
  r.context.host = "node-1";
  r.context.topology = {{"cores", 8}, {"packages", 1}};
  for (const char* id : {"s/a[shm,am,np=2]", "s/b[shm,am,np=2]", "s/c[shm,am,np=2]"}) {
    r.cases.push_back(sample::passed_case(id));
  }
  r.finish();
  return r;
}

CaseResult& find(Report& r, const std::string& id_prefix) {
  for (auto& c : r.cases) {
    if (c.id.rfind(id_prefix, 0) == 0) return c;
  }
  throw std::runtime_error("no case " + id_prefix);
}

std::string text(const GateResult& g) {
  std::ostringstream out;
  write_gate_text(g, out);
  return out.str();
}

std::string markdown(const GateResult& g) {
  std::ostringstream out;
  write_gate_markdown(g, out);
  return out.str();
}

// ---- the U test ------------------------------------------------------------------------

TEST(MannWhitney, SeparatedSamplesByHand) {
  // x = 1..5, y = 6..10: every y beats every x, so U1 = 0 and U2 = 25. No ties:
  // sigma^2 = n1 n2 (n + 1) / 12 = 25 * 11 / 12 = 22.9167, sigma = 4.78714,
  // z = (25 - 12.5 - 0.5) / 4.78714 = 2.50672, p = erfc(z / sqrt 2) = 0.0121858
  // (scipy.stats.mannwhitneyu(x, y, method="asymptotic") says 0.012185780355).
  const std::vector<double> x{1, 2, 3, 4, 5}, y{6, 7, 8, 9, 10};
  const UTest t = mann_whitney_u(x, y);
  EXPECT_DOUBLE_EQ(t.u1, 0);
  EXPECT_DOUBLE_EQ(t.u2, 25);
  EXPECT_NEAR(t.z, 2.50672, 1e-5);
  EXPECT_NEAR(t.p, 0.0121858, 1e-6);
  const UTest swapped = mann_whitney_u(y, x);
  EXPECT_DOUBLE_EQ(swapped.u1, 25);
  EXPECT_DOUBLE_EQ(swapped.p, t.p);
}

TEST(MannWhitney, TiesByHand) {
  // Pooled and ranked: 1 -> 1; 2, 2 -> 2.5; 3, 3 (x) and 3 (y) -> 5; 4, 4 -> 7.5; 5 -> 9;
  // 6 -> 10. R1 = 1 + 2.5 + 2.5 + 5 + 5 = 16, U1 = 16 - 15 = 1, U2 = 24.
  // Tie runs of 2, 3, 2: sum(t^3 - t) = 6 + 24 + 6 = 36.
  // sigma^2 = 25 / 12 * (11 - 36 / 90) = 22.0833, sigma = 4.69929,
  // z = (24 - 12.5 - 0.5) / 4.69929 = 2.34078, p = 0.0192436 (scipy: 0.019243565799).
  const std::vector<double> x{1, 2, 2, 3, 3}, y{3, 4, 4, 5, 6};
  const UTest t = mann_whitney_u(x, y);
  EXPECT_DOUBLE_EQ(t.u1, 1);
  EXPECT_DOUBLE_EQ(t.u2, 24);
  EXPECT_NEAR(t.z, 2.34078, 1e-5);
  EXPECT_NEAR(t.p, 0.0192436, 1e-6);
}

TEST(MannWhitney, UnequalSizes) {
  // x = {10, 12, 11, 13, 14, 12}, y = {12, 15, 16, 14, 17}: U1 = 3.5 (scipy's statistic),
  // ties {12 x3, 14 x2}; p = 0.0422008 (scipy: 0.042200819485).
  const std::vector<double> x{10, 12, 11, 13, 14, 12}, y{12, 15, 16, 14, 17};
  const UTest t = mann_whitney_u(x, y);
  EXPECT_DOUBLE_EQ(t.u1, 3.5);
  EXPECT_DOUBLE_EQ(t.u1 + t.u2, 30);
  EXPECT_NEAR(t.p, 0.0422008, 1e-6);
}

TEST(MannWhitney, NoEvidenceGivesOne) {
  const std::vector<double> same{5, 5, 5}, empty{};
  EXPECT_DOUBLE_EQ(mann_whitney_u(same, same).p, 1);
  EXPECT_DOUBLE_EQ(mann_whitney_u(same, empty).p, 1);
  // Interleaved samples: U1 = U2, z = -0.5 / sigma, p clamps to 1.
  const std::vector<double> a{1, 4, 5, 8}, b{2, 3, 6, 7};
  EXPECT_DOUBLE_EQ(mann_whitney_u(a, b).p, 1);
}

// ---- cases -----------------------------------------------------------------------------

TEST(Gate, IdenticalReportsPass) {
  const Report r = base();
  const GateResult g = gate(r, r, {});
  EXPECT_FALSE(g.regressed());
  EXPECT_EQ(g.cases_compared, 3u);
  EXPECT_EQ(g.improvement_count(), 0u);
  EXPECT_NE(text(g).find("OK: no regression, 0 improvements"), std::string::npos) << text(g);
}

TEST(Gate, PassToFailIsARegression) {
  const Report before = base();
  Report now = base();
  find(now, "s/b").status = Verdict::fail;
  find(now, "s/b").failures = {{1, "x.lua:3", "value 7 != 8\nsecond line"}};
  const GateResult g = gate(before, now, {});
  ASSERT_TRUE(g.regressed());
  ASSERT_EQ(g.now_failing.size(), 1u);
  EXPECT_EQ(g.now_failing[0].id, "s/b[shm,am,np=2]");
  EXPECT_EQ(g.now_failing[0].before, "PASS");
  EXPECT_EQ(g.now_failing[0].after, "FAIL");
  const std::string t = text(g);
  EXPECT_NE(t.find("REGRESSED: 1 regression,"), std::string::npos) << t;
  EXPECT_NE(t.find("    s/b[shm,am,np=2]: PASS -> FAIL (rank 1 x.lua:3: value 7 != 8 ...)\n"),
            std::string::npos)
      << t;
  EXPECT_NE(markdown(g).find("| now failing | `s/b[shm,am,np=2]` | PASS | FAIL: rank 1 x.lua:3"),
            std::string::npos)
      << markdown(g);
}

TEST(Gate, MustDeadlockCaseThatCompletesIsARegression) {
  Report before = base();
  find(before, "s/a").expected = Expected::deadlock;
  find(before, "s/a").status = Verdict::deadlock;
  Report now = before;
  find(now, "s/a").status = Verdict::pass;
  const GateResult g = gate(before, now, {});
  ASSERT_EQ(g.now_failing.size(), 1u);
  EXPECT_EQ(g.now_failing[0].after, "FAIL");
}

// ---- known intermittent failures -------------------------------------------------------

std::vector<KnownIntermittent> known_b() {
  return known_intermittent_from_json(json::parse(R"({"known_intermittent": [
    {"case": "s/b[shm,am,np=2]", "verdict": "error", "contains": "ERR_RMA_RANGE",
     "defect": "defect 15, docs/conformance-mpi.md"}]})"));
}

GateOptions with_known(std::vector<KnownIntermittent> k) {
  GateOptions o;
  o.known = std::move(k);
  return o;
}

TEST(Gate, KnownIntermittentFailureIsListedWithItsDefect) {
  const Report before = base();
  Report now = base();
  find(now, "s/b").status = Verdict::error;
  find(now, "s/b").failures = {{0, "x.lua:47", "RMA_RANGE in put: MPI_ERR_RMA_RANGE: invalid"}};
  const GateResult g = gate(before, now, with_known(known_b()));
  EXPECT_FALSE(g.regressed());
  ASSERT_EQ(g.known_failing.size(), 1u);
  EXPECT_EQ(g.known_failing[0].change.after, "ERROR");
  EXPECT_EQ(g.known_failing[0].defect, "defect 15, docs/conformance-mpi.md");
  const std::string t = text(g);
  EXPECT_NE(t.find("OK: no regression, 0 improvements, 1 known intermittent failure\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("Known intermittent failures (not gated):"), std::string::npos) << t;
  EXPECT_NE(t.find("s/b[shm,am,np=2]: PASS -> ERROR (rank 0 x.lua:47: RMA_RANGE in put"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("known: defect 15, docs/conformance-mpi.md"), std::string::npos) << t;
  EXPECT_NE(markdown(g).find("| known intermittent | `s/b[shm,am,np=2]` | PASS | ERROR"),
            std::string::npos)
      << markdown(g);
  // Without the list the same run regressed.
  EXPECT_TRUE(gate(before, now, {}).regressed());
}

TEST(Gate, KnownFailureShowsTheFailureThatMatchedAndSkipsItsCounts) {
  Report before = base();
  find(before, "s/b").messages.measured = true;
  find(before, "s/b").messages.total = 2;
  Report now = base();
  CaseResult& b = find(now, "s/b");
  b.status = Verdict::error;
  b.failures = {{1, "x.lua:9", "value 7 != 8"},
                {0, "x.lua:47", "MPI_Put: MPI_ERR_RMA_RANGE"},
                {-1, "mpirun", "was stopped"}};
  b.messages.measured = true;
  b.messages.total = 1;  // the run stopped short
  const GateResult g = gate(before, now, with_known(known_b()));
  EXPECT_FALSE(g.regressed()) << text(g);
  EXPECT_TRUE(g.message_changes.empty());
  ASSERT_EQ(g.known_failing.size(), 1u);
  EXPECT_EQ(g.known_failing[0].change.detail, "rank 0 x.lua:47: MPI_Put: MPI_ERR_RMA_RANGE");
}

TEST(Gate, KnownCaseFailingAnotherWayIsStillARegression) {
  const Report before = base();
  Report wrong_text = base();
  find(wrong_text, "s/b").status = Verdict::error;
  find(wrong_text, "s/b").failures = {{0, "x.lua:47", "MPI_ERR_OTHER"}};
  Report wrong_verdict = base();
  find(wrong_verdict, "s/b").status = Verdict::crash;
  find(wrong_verdict, "s/b").reason = "ERR_RMA_RANGE, then SIGSEGV";
  Report other_case = base();
  find(other_case, "s/c").status = Verdict::error;
  find(other_case, "s/c").failures = {{0, "x.lua:47", "MPI_ERR_RMA_RANGE"}};
  for (const Report* now : {&wrong_text, &wrong_verdict, &other_case}) {
    const GateResult g = gate(before, *now, with_known(known_b()));
    EXPECT_TRUE(g.regressed());
    EXPECT_EQ(g.now_failing.size(), 1u);
    EXPECT_TRUE(g.known_failing.empty());
  }
}

TEST(Gate, KnownFailureOfANewCaseIsNotARegression) {
  Report before = base();
  before.cases.erase(before.cases.begin() + 1);  // s/b is new in the report
  Report now = base();
  find(now, "s/b").status = Verdict::error;
  find(now, "s/b").reason = "MPI_ERR_RMA_RANGE in MPI_Put";
  // An entry for a case of another baseline (one file serves every gate) changes nothing.
  auto known = known_b();
  known.push_back({"s/gone[shm,am,np=2]", Verdict::crash, "SIGSEGV", "an old defect"});
  const GateResult g = gate(before, now, with_known(known));
  EXPECT_FALSE(g.regressed());
  EXPECT_TRUE(g.new_failing.empty());
  ASSERT_EQ(g.known_failing.size(), 1u);
  EXPECT_EQ(g.known_failing[0].change.before, "");
  EXPECT_EQ(text(g).find("s/gone"), std::string::npos) << text(g);
}

TEST(KnownIntermittent, BadEntriesNameTheirField) {
  const auto error_of = [](const char* text) -> std::string {
    try {
      known_intermittent_from_json(json::parse(text));
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error_of(R"([])"),
            "the file: must be a JSON object with a \"known_intermittent\" list");
  EXPECT_EQ(error_of(R"({"known": []})"),
            "known: unknown field (the file has \"known_intermittent\" only)");
  EXPECT_EQ(error_of(R"({"known_intermittent": [{"case": "a", "verdict": "pass",
            "contains": "x", "defect": "d"}]})"),
            "known_intermittent[0].verdict: 'pass' is not a failing verdict (fail, error, crash, "
            "timeout, deadlock)");
  EXPECT_EQ(error_of(R"({"known_intermittent": [{"case": "a", "verdict": "error",
            "defect": "d"}]})"),
            "known_intermittent[0]: has no \"contains\"");
  EXPECT_EQ(error_of(R"({"known_intermittent": [{"case": "a", "verdict": "error",
            "contains": "", "defect": "d"}]})"),
            "known_intermittent[0].contains: must not be empty");
  EXPECT_EQ(error_of(R"({"known_intermittent": [{"case": "a", "verdict": "error",
            "contains": "x", "defect": "d", "why": 1}]})"),
            "known_intermittent[0].why: unknown field (known: case, verdict, contains, defect)");
  EXPECT_EQ(error_of(R"({"known_intermittent": [
            {"case": "a", "verdict": "error", "contains": "x", "defect": "d"},
            {"case": "a", "verdict": "error", "contains": "y", "defect": "d"}]})"),
            "known_intermittent[1].case: 'a' is listed twice with verdict error");
  EXPECT_EQ(error_of(R"({"known_intermittent": []})"), "no error");
}

TEST(Gate, MissingCaseIsARegression) {
  const Report before = base();
  Report now = base();
  now.cases.pop_back();
  const GateResult g = gate(before, now, {});
  ASSERT_TRUE(g.regressed());
  ASSERT_EQ(g.missing.size(), 1u);
  EXPECT_EQ(g.missing[0].id, "s/c[shm,am,np=2]");
  EXPECT_NE(text(g).find("passed in the baseline, missing from the report:\n    "
                         "s/c[shm,am,np=2]\n"),
            std::string::npos)
      << text(g);
}

TEST(Gate, InterruptedCaseCountsAsMissing) {
  const Report before = base();
  Report now = base();
  now.cases.back().status = Verdict::interrupted;
  now.complete = false;
  now.finish();
  const GateResult g = gate(before, now, {});
  ASSERT_TRUE(g.regressed());
  ASSERT_EQ(g.missing.size(), 1u);
  EXPECT_EQ(g.missing[0].after, "INTERRUPTED");
  EXPECT_TRUE(g.now_failing.empty());
}

TEST(Gate, IncompleteReportIsNoBaseline) {
  Report before = base();
  EXPECT_EQ(baseline_refusal(before, "b.json"), "");
  before.complete = false;
  const std::string why = baseline_refusal(before, "b.json");
  EXPECT_NE(why.find("b.json"), std::string::npos) << why;
  EXPECT_NE(why.find("incomplete"), std::string::npos) << why;
}

TEST(Gate, MissingCaseThatFailedBeforeIsNotARegression) {
  Report before = base();
  find(before, "s/c").status = Verdict::fail;
  Report now = base();
  now.cases.pop_back();
  const GateResult g = gate(before, now, {});
  EXPECT_FALSE(g.regressed());
  ASSERT_EQ(g.gone.size(), 1u);
  EXPECT_NE(text(g).find("did not pass in the baseline, not in the report:\n    "
                         "s/c[shm,am,np=2]: FAIL -> missing\n"),
            std::string::npos)
      << text(g);
}

TEST(Gate, NewFailingCaseIsARegressionNewPassingCaseIsNot) {
  const Report before = base();
  Report now = base();
  now.cases.push_back(sample::passed_case("s/new_ok"));
  EXPECT_FALSE(gate(before, now, {}).regressed());
  now.cases.push_back(sample::passed_case("s/new_bad"));
  now.cases.back().status = Verdict::crash;
  now.cases.back().reason = "signal 11";
  const GateResult g = gate(before, now, {});
  ASSERT_EQ(g.new_failing.size(), 1u);
  EXPECT_EQ(g.new_failing[0].id, "s/new_bad");
  EXPECT_EQ(g.new_cases, 2u);
  EXPECT_NE(text(g).find("s/new_bad: new -> CRASH (signal 11)"), std::string::npos) << text(g);
}

TEST(Gate, FailingInBothAndNowSkippedAreNotedNotGated) {
  Report before = base();
  find(before, "s/a").status = Verdict::fail;
  Report now = base();
  find(now, "s/a").status = Verdict::fail;
  find(now, "s/b").status = Verdict::skip;
  find(now, "s/b").messages.measured = false;
  find(now, "s/b").reason = "provider has no atomics";
  const GateResult g = gate(before, now, {});
  EXPECT_FALSE(g.regressed());
  ASSERT_EQ(g.still_failing.size(), 1u);
  ASSERT_EQ(g.now_skipped.size(), 1u);
  EXPECT_TRUE(g.message_changes.empty());  // a skipped case measures nothing, reported as skip
  EXPECT_NE(text(g).find("passed in the baseline, skipped now:\n    s/b[shm,am,np=2]: PASS -> "
                         "SKIP (provider has no atomics)"),
            std::string::npos)
      << text(g);
}

TEST(Gate, NewlyPassingIsAnImprovement) {
  Report before = base();
  find(before, "s/b").status = Verdict::timeout;
  const Report now = base();
  const GateResult g = gate(before, now, {});
  EXPECT_FALSE(g.regressed());
  ASSERT_EQ(g.now_passing.size(), 1u);
  EXPECT_EQ(g.improvement_count(), 1u);
  const std::string t = text(g);
  EXPECT_NE(t.find("OK: no regression, 1 improvement\n"), std::string::npos) << t;
  EXPECT_NE(t.find("Improvements:\n  now passing:\n    s/b[shm,am,np=2]: TIMEOUT -> PASS"),
            std::string::npos)
      << t;
  EXPECT_NE(markdown(g).find("### Improvements"), std::string::npos);
}

// ---- message counts --------------------------------------------------------------------

TEST(Gate, TotalCountChangeIsARegression) {
  const Report before = base();
  Report now = base();
  auto& m = find(now, "s/a").messages;
  m.total = 3;
  m.by_type["lock"] = 1;
  const GateResult g = gate(before, now, {});
  ASSERT_TRUE(g.regressed());
  ASSERT_EQ(g.message_changes.size(), 1u);
  const auto& counts = g.message_changes[0].counts;
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[0].type, "total");
  EXPECT_EQ(counts[0].before, 2u);
  EXPECT_EQ(counts[0].after, 3u);
  EXPECT_EQ(counts[1].type, "lock");
  EXPECT_EQ(counts[1].before, 0u);
  EXPECT_EQ(counts[1].after, 1u);
  EXPECT_NE(text(g).find("s/a[shm,am,np=2]: total 2 -> 3, lock 0 -> 1 (declared: total 2)"),
            std::string::npos)
      << text(g);
}

TEST(Gate, PerTypeChangeWithTheSameTotalIsARegression) {
  const Report before = base();  // by_type: lock_put 1, unlock_ack 1
  Report now = base();
  find(now, "s/c").messages.by_type = {{"lock_put", 1}, {"get_resp", 1}};
  const GateResult g = gate(before, now, {});
  ASSERT_TRUE(g.regressed());
  ASSERT_EQ(g.message_changes.size(), 1u);
  const auto& counts = g.message_changes[0].counts;
  ASSERT_EQ(counts.size(), 2u);  // total unchanged, so not listed
  EXPECT_EQ(counts[0].type, "get_resp");
  EXPECT_EQ(counts[0].after, 1u);
  EXPECT_EQ(counts[1].type, "unlock_ack");
  EXPECT_EQ(counts[1].after, 0u);
  EXPECT_NE(markdown(g).find("| messages | `s/c[shm,am,np=2]` | get\\_resp 0, unlock\\_ack 1 | "
                             "get\\_resp 1, unlock\\_ack 0"),
            std::string::npos)
      << markdown(g);
}

TEST(Gate, CountNoLongerMeasuredOnAPassingCaseIsARegression) {
  const Report before = base();
  Report now = base();
  find(now, "s/a").messages = MessageCounts{};
  const GateResult g = gate(before, now, {});
  ASSERT_EQ(g.message_changes.size(), 1u);
  EXPECT_FALSE(g.message_changes[0].measured_now);
  EXPECT_NE(text(g).find("not measured any more (total 2 in the baseline)"), std::string::npos);
}

TEST(Gate, CountsFirstMeasuredNowAreNotARegression) {
  Report before = base();
  find(before, "s/a").messages = MessageCounts{};
  EXPECT_FALSE(gate(before, base(), {}).regressed());
}

// ---- latency ---------------------------------------------------------------------------

const std::vector<double> kBefore{10.0, 10.1, 9.9, 10.05, 9.95};

TEST(Gate, SlowerBeyondNoiseIsARegression) {
  Report before = base(), now = base();
  add_bench(before, "put/lock/8/shm:am/manual_time", kBefore);
  add_bench(now, "put/lock/8/shm:am/manual_time", {12.0, 12.1, 11.9, 12.05, 11.95});
  const GateResult g = gate(before, now, {});
  ASSERT_TRUE(g.regressed());
  ASSERT_EQ(g.slower.size(), 1u);
  const LatencyChange& l = g.slower[0];
  EXPECT_TRUE(l.u_test);
  EXPECT_NEAR(l.p, 0.0121858, 1e-6);  // fully separated 5 vs 5, as computed above
  EXPECT_DOUBLE_EQ(l.before_ns, 10000);
  EXPECT_DOUBLE_EQ(l.after_ns, 12000);
  EXPECT_NEAR(l.change, 0.2, 1e-12);
  EXPECT_NE(text(g).find("put/lock/8/shm:am/manual_time: 10.00 us -> 12.00 us (+20.0%; U test "
                         "p=0.0122, 5 vs 5 repetitions)"),
            std::string::npos)
      << text(g);
}

TEST(Gate, SlowerWithinNoiseIsNotARegression) {
  // Medians 11 -> 12 (+9%), but the repetitions overlap: U1 = 8.5 of 25, p = 0.46 > 0.05.
  Report before = base(), now = base();
  add_bench(before, "b", {10, 14, 9, 13, 11});
  add_bench(now, "b", {11, 15, 10, 14, 12});
  const GateResult g = gate(before, now, {});
  EXPECT_FALSE(g.regressed());
  ASSERT_EQ(g.within_noise.size(), 1u);
  EXPECT_GT(g.within_noise[0].p, 0.05);
  EXPECT_NE(text(g).find("changed past the threshold, but within noise:\n    b:"),
            std::string::npos)
      << text(g);
}

TEST(Gate, SignificantButBelowTheThresholdIsNotARegression) {
  Report before = base(), now = base();
  add_bench(before, "b", kBefore);
  add_bench(now, "b", {10.2, 10.3, 10.1, 10.25, 10.15});  // separated, but +2%
  const GateResult g = gate(before, now, {});
  EXPECT_FALSE(g.regressed());
  EXPECT_TRUE(g.within_noise.empty());
  GateOptions tight;
  tight.threshold = 0.01;
  EXPECT_TRUE(gate(before, now, tight).regressed());
}

TEST(Gate, AlphaDecidesTheUTest) {
  Report before = base(), now = base();
  add_bench(before, "b", kBefore);
  add_bench(now, "b", {12.0, 12.1, 11.9, 12.05, 11.95});
  GateOptions strict;
  strict.alpha = 0.01;  // p = 0.0122 is not below it
  const GateResult g = gate(before, now, strict);
  EXPECT_FALSE(g.regressed());
  EXPECT_EQ(g.within_noise.size(), 1u);
}

TEST(Gate, FewRepetitionsCompareMediansAndBands) {
  Report before = base(), now = base();
  add_bench(before, "single", {10});
  add_bench(now, "single", {12});
  add_bench(before, "small_change", {10});
  add_bench(now, "small_change", {10.3});
  add_bench(before, "overlapping", {9, 10, 13});
  add_bench(now, "overlapping", {11, 12, 14});  // +20% median, but the bands overlap
  add_bench(before, "apart", {9.8, 10, 10.2});
  add_bench(now, "apart", {11.8, 12, 12.2});
  const GateResult g = gate(before, now, {});
  ASSERT_EQ(g.slower.size(), 2u);
  EXPECT_EQ(g.slower[0].name, "single");
  EXPECT_FALSE(g.slower[0].u_test);
  EXPECT_EQ(g.slower[1].name, "apart");
  ASSERT_EQ(g.within_noise.size(), 1u);
  EXPECT_EQ(g.within_noise[0].name, "overlapping");
  EXPECT_EQ(g.benchmarks_compared, 4u);
  EXPECT_NE(text(g).find("single: 10.00 us -> 12.00 us (+20.0%; medians, 1 vs 1 repetitions)"),
            std::string::npos)
      << text(g);
}

TEST(Gate, AggregatesOnlyUseTheirMedianAndBand) {
  Report before = base(), now = base();
  for (auto [r, med] : {std::pair{&before, 10.0}, std::pair{&now, 13.0}}) {
    for (auto [agg, v] : {std::pair{"median", med}, std::pair{"min", med - 0.5},
                          std::pair{"max", med + 0.5}, std::pair{"cv", 0.9}}) {
      r->benchmarks.push_back({{"name", std::string("b_") + agg},
                               {"run_name", "b"},
                               {"run_type", "aggregate"},
                               {"aggregate_name", agg},
                               {"repetitions", 9},
                               {"real_time", v},
                               {"time_unit", "ms"}});
    }
  }
  const GateResult g = gate(before, now, {});
  ASSERT_EQ(g.slower.size(), 1u);
  EXPECT_DOUBLE_EQ(g.slower[0].before_ns, 10e6);
  EXPECT_DOUBLE_EQ(g.slower[0].after_ns, 13e6);
  EXPECT_EQ(g.slower[0].before_repetitions, 9u);
}

TEST(Gate, FasterIsAnImprovement) {
  Report before = base(), now = base();
  add_bench(before, "b", kBefore);
  add_bench(now, "b", {8.0, 8.1, 7.9, 8.05, 7.95});
  const GateResult g = gate(before, now, {});
  EXPECT_FALSE(g.regressed());
  ASSERT_EQ(g.faster.size(), 1u);
  EXPECT_EQ(g.improvement_count(), 1u);
  EXPECT_NE(text(g).find("faster beyond noise:\n    b: 10.00 us -> 8.000 us (-20.0%"),
            std::string::npos)
      << text(g);
}

TEST(Gate, OtherHostReportsLatencyWithoutGating) {
  Report before = base(), now = base();
  now.context.host = "node-2";
  add_bench(before, "b", kBefore);
  add_bench(now, "b", {12.0, 12.1, 11.9, 12.05, 11.95});
  const GateResult g = gate(before, now, {});
  EXPECT_FALSE(g.latency_gated);
  EXPECT_FALSE(g.regressed());
  EXPECT_EQ(g.slower.size(), 1u);  // still computed and shown
  const std::string t = text(g);
  EXPECT_NE(t.find("Latency not gated: the baseline was taken on host 'node-1', this run on "
                   "'node-2'.\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("Latency changes, for information only:\n  slower beyond noise:\n    b:"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("Regressions:"), std::string::npos) << t;
  const std::string md = markdown(g);
  EXPECT_NE(md.find("### Latency (not gated)"), std::string::npos) << md;
  EXPECT_EQ(md.find("### Regressions"), std::string::npos) << md;

  // Counts are gated on any host.
  find(now, "s/a").messages.total = 5;
  EXPECT_TRUE(gate(before, now, {}).regressed());
}

TEST(Gate, OtherTopologyReportsLatencyWithoutGating) {
  Report before = base(), now = base();
  now.context.topology["cores"] = 16;
  add_bench(before, "b", kBefore);
  add_bench(now, "b", {12.0, 12.1, 11.9, 12.05, 11.95});
  const GateResult g = gate(before, now, {});
  EXPECT_FALSE(g.latency_gated);
  EXPECT_FALSE(g.regressed());
  EXPECT_NE(g.latency_note.find("topology differs"), std::string::npos) << g.latency_note;
}

TEST(Gate, NewBenchmarksAndOnesWithoutABaselineFigureAreNoted) {
  Report before = base(), now = base();
  add_bench(before, "failed-before", kBefore);
  before.benchmarks.back()["error_occurred"] = true;  // one entry, an error: no figure
  before.benchmarks.erase(before.benchmarks.begin(), before.benchmarks.end() - 1);
  add_bench(now, "new", kBefore);
  const GateResult g = gate(before, now, {});
  EXPECT_FALSE(g.regressed()) << text(g);
  EXPECT_EQ(g.missing_benchmarks, std::vector<std::string>{"failed-before"});
  EXPECT_EQ(g.new_benchmarks, std::vector<std::string>{"new"});
}

// An error in the baseline with a time now gave no line at all, and a baseline median of 0
// left the benchmark out of the count without a word.
TEST(Gate, AFigureWithNoneToCompareWithIsNoted) {
  Report before = base(), now = base();
  add_bench(before, "failed-before", kBefore);
  for (auto& e : before.benchmarks) e["error_occurred"] = true;
  add_bench(before, "zero", {0.0, 0.0, 0.0});
  add_bench(now, "failed-before", kBefore);
  add_bench(now, "zero", kBefore);
  const GateResult g = gate(before, now, {});
  EXPECT_FALSE(g.regressed()) << text(g);
  EXPECT_EQ(g.measured_now, (std::vector<std::string>{"failed-before", "zero"}));
  EXPECT_EQ(g.benchmarks_compared, 0u);
  EXPECT_NE(text(g).find("benchmarks with a figure now, none to compare with in the baseline"),
            std::string::npos)
      << text(g);
  EXPECT_NE(markdown(g).find("| figure now |"), std::string::npos) << markdown(g);
}

// A benchmark that had a time in the baseline and has none now lost a figure, as a case that
// passes without its baseline's count lost a check: a regression on any host.
TEST(Gate, BenchmarkMissingFromTheReportLostItsFigure) {
  Report before = base(), now = base();
  add_bench(before, "gone", kBefore);
  add_bench(before, "kept", kBefore);
  add_bench(now, "kept", kBefore);
  now.context.host = "node-2";  // latency not gated: a lost figure still is
  const GateResult g = gate(before, now, {});
  EXPECT_TRUE(g.regressed());
  EXPECT_EQ(g.regression_count(), 1u);
  ASSERT_EQ(g.lost_benchmarks.size(), 1u);
  EXPECT_EQ(g.lost_benchmarks[0].name, "gone");
  EXPECT_TRUE(g.missing_benchmarks.empty());
  EXPECT_NE(text(g).find("benchmarks that lost their figure:\n    gone: 10.00 us in the "
                         "baseline, now missing from the report\n"),
            std::string::npos)
      << text(g);
  EXPECT_NE(markdown(g).find("| figure lost | `gone` | 10.00 us | missing from the report |"),
            std::string::npos)
      << markdown(g);
}

// A figure lost with its case, when that case is skipped now or fails as a known defect, is
// noted beside the case: the gate excused or only notes the case, so the figure too.
TEST(Gate, FigureLostWithASkippedOrKnownFailingCaseIsNoted) {
  Report before = base();
  add_bench(before, "of-b", kBefore);
  add_bench(before, "of-c", kBefore);
  for (auto& e : before.benchmarks)
    e["case"] = e["name"] == "of-b" ? "s/b[shm,am,np=2]" : "s/c[shm,am,np=2]";
  Report now = base();
  find(now, "s/b").status = Verdict::error;
  find(now, "s/b").failures = {{0, "x.lua:47", "RMA_RANGE in put: MPI_ERR_RMA_RANGE: invalid"}};
  find(now, "s/c").status = Verdict::skip;
  find(now, "s/c").messages.measured = false;
  find(now, "s/c").reason = "provider has no atomics";
  const GateResult g = gate(before, now, with_known(known_b()));
  EXPECT_FALSE(g.regressed()) << text(g);
  EXPECT_TRUE(g.lost_benchmarks.empty());
  ASSERT_EQ(g.excused_lost.size(), 2u);
  EXPECT_NE(text(g).find("lost their figure with a skipped or known-failing case:\n    of-b: "
                         "10.00 us in the baseline, now missing from the report\n"),
            std::string::npos)
      << text(g);
  EXPECT_NE(markdown(g).find("| figure lost with its case | `of-c` |"), std::string::npos)
      << markdown(g);
  // The same figures lost from cases that still pass are regressions.
  const GateResult still = gate(before, base(), {});
  EXPECT_EQ(still.lost_benchmarks.size(), 2u);
  EXPECT_TRUE(still.regressed());
}

TEST(Gate, BenchmarkErrorWhereTheBaselineHadAFigureIsARegression) {
  Report before = base(), now = base();
  add_bench(before, "b", kBefore);
  now.benchmarks.push_back({{"name", "b"},
                            {"run_name", "b"},
                            {"run_type", "iteration"},
                            {"error_occurred", true},
                            {"error_message", "target rank died"}});
  const GateResult g = gate(before, now, {});
  EXPECT_TRUE(g.regressed());
  ASSERT_EQ(g.lost_benchmarks.size(), 1u);
  EXPECT_EQ(g.lost_benchmarks[0].why, "an error: target rank died");
  EXPECT_TRUE(g.benchmark_errors.empty()) << "listed once, as the regression";
  EXPECT_NE(text(g).find("    b: 10.00 us in the baseline, now an error: target rank died\n"),
            std::string::npos)
      << text(g);
}

TEST(Gate, BenchmarkErrorsWithoutABaselineFigureAreNoted) {
  Report before = base(), now = base();
  add_bench(now, "b", kBefore);
  now.benchmarks[0]["error_occurred"] = true;
  now.benchmarks[0]["error_message"] = "target rank died";
  const GateResult g = gate(before, now, {});
  EXPECT_FALSE(g.regressed());
  EXPECT_EQ(g.benchmark_errors, std::vector<std::string>{"b: target rank died"});
  EXPECT_NE(text(g).find("benchmarks that reported an error:\n    b: target rank died\n"),
            std::string::npos)
      << text(g);
}

// ---- inputs that cannot be gated ----------------------------------------------------------

TEST(GateInput, DuplicateCaseIdIsRefusedNamingBothIndexes) {
  EXPECT_EQ(input_refusal(base(), "report r.json"), "");
  Report r = base();
  r.cases.push_back(r.cases[0]);
  r.cases.back().status = Verdict::fail;
  EXPECT_EQ(input_refusal(r, "report r.json"),
            "report r.json: case id 's/a[shm,am,np=2]' appears twice: cases[0] and cases[3]");
}

TEST(GateInput, DuplicateBenchmarkEntryIsRefusedRepetitionsAreNot) {
  Report r = base();
  add_bench(r, "b", kBefore);
  add_bench(r, "c", {1.0});
  EXPECT_EQ(input_refusal(r, "baseline b.json"), "");
  // Entries without a repetition_index are repetitions, as other tools write them.
  Report plain = base();
  for (int i = 0; i < 3; ++i) plain.benchmarks.push_back({{"name", "p"}, {"real_time", 1.0}});
  EXPECT_EQ(input_refusal(plain, "baseline b.json"), "");

  r.benchmarks.push_back(r.benchmarks[2]);
  EXPECT_EQ(input_refusal(r, "baseline b.json"),
            "baseline b.json: benchmark 'b' (repetition 2) appears twice: benchmarks[2] and "
            "benchmarks[6]");
  Report agg = base();
  const json median{{"name", "b_median"},         {"run_name", "b"},  {"run_type", "aggregate"},
                    {"aggregate_name", "median"}, {"real_time", 1.0}, {"time_unit", "us"}};
  agg.benchmarks = json::array({median, median});
  EXPECT_EQ(input_refusal(agg, "report r.json"),
            "report r.json: benchmark 'b_median' (aggregate median) appears twice: "
            "benchmarks[0] and benchmarks[1]");
}

// A time that is not one is refused naming the file and the field, in the baseline as in the
// report: a negative real_time was compared ("faster beyond noise: 242.9 ns -> -1.000 us"),
// and a figure's null or missing real_time dropped the benchmark out of the comparison.
TEST(GateInput, BenchmarkTimeThatIsNotOneIsRefusedNamingTheField) {
  Report good = base();
  add_bench(good, "b", kBefore);
  add_bench(good, "c", {1.0});
  EXPECT_EQ(input_refusal(good, "baseline b.json"), "");
  const std::string expected = " is not a time (expected a finite number >= 0)";
  const std::string no_time =
      " (expected a finite number >= 0; a run that has no time says \"error_occurred\": true)";

  Report r = good;
  r.benchmarks[0]["real_time"] = -1;
  EXPECT_EQ(input_refusal(r, "report r.json"),
            "report r.json: benchmarks[0].real_time: -1" + expected);
  r = good;
  r.benchmarks[5]["real_time"] = -0.5;
  EXPECT_EQ(input_refusal(r, "baseline b.json"),
            "baseline b.json: benchmarks[5].real_time: -0.5" + expected);
  r = good;
  r.benchmarks[1]["cpu_time"] = -3;
  EXPECT_EQ(input_refusal(r, "baseline b.json"),
            "baseline b.json: benchmarks[1].cpu_time: -3" + expected);
  r = good;
  r.benchmarks[2]["real_time"] = nullptr;
  EXPECT_EQ(input_refusal(r, "baseline b.json"),
            "baseline b.json: benchmarks[2].real_time: null is not a time" + no_time);
  r = good;
  r.benchmarks[5].erase("real_time");
  EXPECT_EQ(input_refusal(r, "baseline b.json"),
            "baseline b.json: benchmarks[5].real_time is missing" + no_time);
  r = good;
  r.benchmarks[3]["real_time"] = "fast";  // report_from_json refuses it first
  EXPECT_EQ(input_refusal(r, "report r.json"),
            "report r.json: benchmarks[3].real_time: \"fast\" is not a time" + no_time);
  r = good;
  r.benchmarks[0]["time_unit"] = "xs";  // so does report_from_json
  EXPECT_EQ(input_refusal(r, "report r.json"),
            "report r.json: benchmarks[0].time_unit: \"xs\" is not a unit (expected \"ns\", "
            "\"us\", \"ms\", \"s\" or \"\" for ns)");
  r = good;
  r.benchmarks[0]["real_time"] = 1e300;
  r.benchmarks[0]["time_unit"] = "s";
  EXPECT_EQ(input_refusal(r, "report r.json"),
            "report r.json: benchmarks[0].real_time: 1e+300 s is too large (expected a time that "
            "fits a double in ns)");
  // An aggregate the figure is read from is a figure too.
  r = base();
  r.benchmarks.push_back({{"name", "b_median"},
                          {"run_name", "b"},
                          {"run_type", "aggregate"},
                          {"aggregate_name", "median"},
                          {"aggregate_unit", "time"},
                          {"real_time", nullptr},
                          {"time_unit", "us"}});
  EXPECT_EQ(input_refusal(r, "baseline b.json"),
            "baseline b.json: benchmarks[0].real_time: null is not a time" + no_time);
}

// The audit's cases through the reader: report_from_json takes a negative or null real_time
// (a null is how bench_runner writes a NaN), so the gate's input check is what refuses them;
// without it the negative time compared as faster, and the null one dropped out unsaid.
TEST(GateInput, TimesTheReaderAcceptsButTheGateCannotCompare) {
  Report before = base();
  add_bench(before, "a", {0.2429});
  add_bench(before, "b", {0.5});
  const json good = to_json(before);
  ASSERT_EQ(input_refusal(report_from_json(good), "baseline b.json"), "");
  json j = good;
  j["benchmarks"][0]["real_time"] = -1;
  EXPECT_EQ(input_refusal(report_from_json(j), "report r.json"),
            "report r.json: benchmarks[0].real_time: -1 is not a time (expected a finite "
            "number >= 0)");
  for (int how = 0; how < 3; ++how) {
    j = good;
    if (how == 0) j["benchmarks"][1]["real_time"] = nullptr;
    if (how == 1) j["benchmarks"][1]["real_time"] = -2.5;
    if (how == 2) j["benchmarks"][1].erase("real_time");
    const Report bad = report_from_json(j);
    EXPECT_NE(
        input_refusal(bad, "baseline b.json").rfind("baseline b.json: benchmarks[1].real_time", 0),
        std::string::npos)
        << how << ": " << input_refusal(bad, "baseline b.json");
    EXPECT_EQ(gate(bad, before, {}).benchmarks_compared, 1u) << "what the refusal prevents";
  }
}

// Entries that have no time by meaning keep that meaning: an error (its time, null or absent,
// is not read: a lost figure or a noted one), and aggregates that are no location of the time
// (stddev, cv, p90, p99, BigO), whose NaN Google Benchmark writes as null. A time of 0 and an
// entry without time_unit (ns, Google Benchmark's default) are times.
TEST(GateInput, EntriesWithoutATimeByMeaningAreAccepted) {
  Report r = base();
  add_bench(r, "b", kBefore);
  r.benchmarks[0]["error_occurred"] = true;
  r.benchmarks[0]["real_time"] = nullptr;
  r.benchmarks[1]["error_occurred"] = true;
  r.benchmarks[1].erase("real_time");
  r.benchmarks[1].erase("cpu_time");
  r.benchmarks[2]["real_time"] = 0;
  r.benchmarks[3].erase("time_unit");
  for (const char* agg : {"stddev", "cv", "p90", "p99"}) {
    r.benchmarks.push_back({{"name", std::string("b_") + agg},
                            {"run_name", "b"},
                            {"run_type", "aggregate"},
                            {"aggregate_name", agg},
                            {"aggregate_unit", agg == std::string("cv") ? "percentage" : "time"},
                            {"real_time", nullptr},
                            {"cpu_time", nullptr},
                            {"time_unit", "us"}});
  }
  r.benchmarks.push_back({{"name", "b_BigO"},
                          {"run_name", "b"},
                          {"run_type", "aggregate"},
                          {"aggregate_name", "BigO"},
                          {"cpu_coefficient", 1.0},
                          {"real_coefficient", 1.0},
                          {"big_o", "N"},
                          {"time_unit", "us"}});
  EXPECT_EQ(input_refusal(r, "report r.json"), "");
  // Every entry an error: no figure in the baseline, noted; a lost one where it had a figure.
  Report errors = base();
  add_bench(errors, "b", kBefore);
  for (auto& e : errors.benchmarks) {
    e["error_occurred"] = true;
    e["real_time"] = nullptr;
  }
  EXPECT_EQ(input_refusal(errors, "baseline b.json"), "");
  Report timed = base();
  add_bench(timed, "b", kBefore);
  const GateResult noted = gate(errors, timed, {});
  EXPECT_FALSE(noted.regressed()) << text(noted);
  EXPECT_EQ(noted.benchmarks_compared, 0u);
  const GateResult lost = gate(timed, errors, {});
  ASSERT_EQ(lost.lost_benchmarks.size(), 1u) << text(lost);
  EXPECT_EQ(lost.lost_benchmarks[0].why, "an error: error");
}

TEST(GateInput, BaselineSharingNoCaseIsRefused) {
  const Report before = base();
  EXPECT_EQ(comparison_refusal(before, base(), "b.json", "r.json"), "");
  Report other;
  other.cases.push_back(sample::passed_case("t/x[shm,direct,np=2]"));
  const std::string why = comparison_refusal(before, other, "b.json", "r.json");
  EXPECT_NE(why.find("report r.json (1 cases) and baseline b.json (3 cases) share no case id: "
                     "probably another suite or configuration"),
            std::string::npos)
      << why;
  // One case in common is enough: the rest are missing or new, which the gate says.
  other.cases.push_back(before.cases[1]);
  EXPECT_EQ(comparison_refusal(before, other, "b.json", "r.json"), "");

  const std::string none = comparison_refusal(before, Report{}, "b.json", "r.json");
  EXPECT_NE(none.find("report r.json has no case to compare with the 3 of baseline b.json"),
            std::string::npos)
      << none;
  // A run stopped before its first case finished is gated: every case is missing (exit 1).
  Report stopped;
  stopped.complete = false;
  EXPECT_EQ(comparison_refusal(before, stopped, "b.json", "r.json"), "");
  const GateResult g = gate(before, stopped, {});
  EXPECT_EQ(g.missing.size(), 3u);
  EXPECT_TRUE(g.regressed());
}

TEST(GateInput, EmptyBaselineIsNothingToGateAgainst) {
  EXPECT_EQ(comparison_refusal(Report{}, base(), "b.json", "r.json"),
            "baseline b.json has no case and no benchmark: nothing to gate against");
  // A baseline of benchmarks only is compared by benchmark name.
  Report bench_only, now = base();
  add_bench(bench_only, "b", kBefore);
  EXPECT_NE(comparison_refusal(bench_only, now, "b.json", "r.json").find("share no benchmark"),
            std::string::npos);
  add_bench(now, "b", kBefore);
  EXPECT_EQ(comparison_refusal(bench_only, now, "b.json", "r.json"), "");
}

TEST(Gate, MarkdownHeadingAndTable) {
  const Report before = base();
  Report now = base();
  find(now, "s/a").status = Verdict::deadlock;
  GateOptions o;
  o.report_name = "out/report.json";
  o.baseline_name = "reports/baseline/quick.json";
  const std::string md = markdown(gate(before, now, o));
  EXPECT_EQ(md.rfind("## rmabench gate: regressed, 1 regression\n\n", 0), 0u) << md;
  EXPECT_NE(md.find("`out/report.json` against baseline `reports/baseline/quick.json`"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| | case or benchmark | baseline | now |\n|---|---|---|---|\n"
                    "| now failing | `s/a[shm,am,np=2]` | PASS | DEADLOCK |"),
            std::string::npos)
      << md;
}

TEST(Gate, FormatHelpers) {
  EXPECT_EQ(format_time_ns(850), "850.0 ns");
  EXPECT_EQ(format_time_ns(1250), "1.250 us");
  EXPECT_EQ(format_time_ns(3.4e6), "3.400 ms");
  EXPECT_EQ(format_time_ns(2e9), "2.000 s");
  EXPECT_EQ(format_change(0.28), "+28.0%");
  EXPECT_EQ(format_change(-0.035), "-3.5%");
}

// A case run on an MPI library: packets not observable, the library named in `impl`.
CaseResult library_case(const std::string& id) {
  CaseResult c = sample::passed_case(id);
  c.backend.clear();
  c.path.clear();
  c.impl = "mpich 4.0.2";
  c.messages = MessageCounts{};
  c.messages.unobservable = "not observable in mpich 4.0.2";
  return c;
}

Report library_report() {
  Report r = base();
  r.cases.clear();
  for (const char* id :
       {"s/a[impl=mpich,np=2,progress=calls]", "s/b[impl=mpich,np=2,progress=calls]"})
    r.cases.push_back(library_case(id));
  r.finish();
  return r;
}

TEST(Gate, NullCountsAreNotComparableNeverARegression) {
  const Report baseline = library_report();
  const Report report = library_report();
  const GateResult g = gate(baseline, report, {});
  EXPECT_FALSE(g.regressed());
  EXPECT_TRUE(g.message_changes.empty());
  ASSERT_EQ(g.not_comparable.size(), 2u);
  EXPECT_EQ(g.not_comparable[0].id, "s/a[impl=mpich,np=2,progress=calls]");
  EXPECT_EQ(g.not_comparable[0].reason, "not observable in mpich 4.0.2");
  const std::string t = text(g);
  EXPECT_NE(t.find("OK: no regression"), std::string::npos) << t;
  EXPECT_NE(t.find("message counts not comparable"), std::string::npos) << t;
  EXPECT_NE(t.find("2 cases, not observable in mpich 4.0.2: s/a[impl=mpich"), std::string::npos)
      << t;
  EXPECT_NE(t.find("neither failed nor passed by the count check"), std::string::npos) << t;
  EXPECT_NE(markdown(g).find("messages not comparable"), std::string::npos) << markdown(g);
}

TEST(Gate, NullCountAgainstAMeasuredOneIsNotComparableEither) {
  // Never a pass of the count check: a measured baseline and a null now are not "equal".
  Report baseline = library_report();
  find(baseline, "s/a").messages = sample::passed_case("x").messages;
  ASSERT_TRUE(find(baseline, "s/a").messages.measured);
  const GateResult g = gate(baseline, library_report(), {});
  EXPECT_FALSE(g.regressed());
  EXPECT_EQ(g.not_comparable.size(), 2u);
  // And the other way round.
  const GateResult back = gate(library_report(), baseline, {});
  EXPECT_FALSE(back.regressed());
  EXPECT_EQ(back.not_comparable.size(), 2u);
}

TEST(Gate, VerdictsStillGateOnLibraries) {
  Report report = library_report();
  find(report, "s/b").status = Verdict::crash;
  find(report, "s/a").status = Verdict::skip;
  report.finish();
  const GateResult g = gate(library_report(), report, {});
  EXPECT_TRUE(g.regressed());
  ASSERT_EQ(g.now_failing.size(), 1u);
  EXPECT_EQ(g.now_failing[0].id, "s/b[impl=mpich,np=2,progress=calls]");
  // A skipped case has nothing to compare: not listed as not comparable.
  ASSERT_EQ(g.not_comparable.size(), 1u);
  EXPECT_EQ(g.not_comparable[0].id, "s/b[impl=mpich,np=2,progress=calls]");
}

TEST(Gate, ImplDefinedIsNotAFailure) {
  Report report = library_report();
  find(report, "s/b").status = Verdict::impl_defined;
  report.cases.push_back(library_case("s/new[impl=mpich,np=2,progress=calls]"));
  report.cases.back().status = Verdict::impl_defined;
  report.finish();
  const GateResult g = gate(library_report(), report, {});
  EXPECT_TRUE(g.new_failing.empty());
  EXPECT_TRUE(g.now_failing.empty());
}
}  // namespace
}  // namespace reports
