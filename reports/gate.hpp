// reports/gate.hpp — compares a run's report with a baseline report and decides whether the
// run regressed (`rmabench gate`).
//
// A regression is
//   - a case that passed in the baseline and now fails, or is missing from the report or
//     interrupted in it (an incomplete report: its run was stopped);
//   - a case that is not in the baseline and fails (a new conformance failure);
//   except, for these two, a failure an entry of `options.known` names (a library's
//   intermittent defect: reports/known_intermittent.hpp), listed in `known_failing` with
//   its defect, its message counts not compared;
//   - any change of a measured message count, total or per packet type, of a case in both
//     (counts are exact: the protocol either costs the same or it changed); a count that
//     cannot be observed on either side (null: an MPI library) is not comparable: listed,
//     never a regression and never a passed count check;
//   - a benchmark whose time per iteration got slower beyond noise, when the baseline was
//     taken on the same host (context.host and context.topology equal). On another host the
//     changes are still computed and listed, but do not count;
//   - a benchmark that had a time in the baseline and has none now: missing from the report,
//     or every entry of it an error (a lost figure, on any host, like a case that passes
//     without the count its baseline had). A benchmark without a time in the baseline
//     (it failed there too) is noted, not gated.
// "Beyond noise": with at least `min_repetitions` repetitions on both sides, a two-sided
// Mann-Whitney U test on the repetitions' times (as Google Benchmark's compare.py does) must
// give p < alpha and the medians must differ by more than `threshold`; with fewer, the
// medians must differ by more than `threshold` and the min-max bands of the repetitions,
// where there are any, must not overlap. Improvements (cases now passing, benchmarks faster
// by the same rules) are listed and never fail the gate.
//
// The gate compares two reports of the same suite: input_refusal() and comparison_refusal()
// say why a pair cannot be gated at all (duplicate ids, a benchmark time that is not one,
// nothing in common), which `rmabench gate` makes a usage error before calling gate().
//
//   GateResult g = gate(baseline, report, GateOptions{});
//   write_gate_text(g, std::cout);   // reports/gate_text_writer.hpp
//   return g.regressed() ? 1 : 0;
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "reports/known_intermittent.hpp"
#include "reports/model.hpp"

namespace reports {

struct GateOptions {
  double threshold = 0.05;          // smallest relative change of a median that counts (0.05 = 5%)
  double alpha = 0.05;              // significance level of the U test
  std::size_t min_repetitions = 5;  // per side, for the U test
  std::string report_name = "report";  // how the writers name the two files
  std::string baseline_name = "baseline";
  std::vector<KnownIntermittent> known;  // failures excused as a known intermittent defect
};

// A case whose verdict changed. A side where the case does not exist has an empty verdict.
struct CaseChange {
  std::string id;
  std::string before;  // verdict word in the baseline ("PASS", "FAIL", ...), "" if absent
  std::string after;   // verdict word now, "" if absent
  std::string detail;  // first failure or reason now, for a quick look
};

// A case that failed the way a known intermittent defect fails it.
struct KnownChange {
  CaseChange change;
  std::string defect;  // the entry's defect
};

struct CountChange {
  std::string type;  // "total" or a packet type
  std::uint64_t before = 0;
  std::uint64_t after = 0;
};

struct MessageChange {
  std::string id;
  std::vector<CountChange> counts;   // total first, then the packet types that changed
  bool measured_now = true;          // false: the baseline measured, this run did not
  std::uint64_t expected_total = 0;  // what the case declares; 0 when it declares none
  bool declares_total = false;
};

// A case in both whose message count cannot be compared: a side could not observe it.
struct NotComparable {
  std::string id;
  std::string reason;  // "not observable in mpich 4.0.2"
};

struct LatencyChange {
  std::string name;      // the benchmark's run name
  double before_ns = 0;  // medians of the time per iteration
  double after_ns = 0;
  double change = 0;    // after / before - 1
  bool u_test = false;  // false: medians and bands compared (too few repetitions)
  double p = 1;         // the U test's p-value (u_test only)
  std::size_t before_repetitions = 0;
  std::size_t after_repetitions = 0;
};

// A benchmark the baseline has a time for and this run does not.
struct LostBenchmark {
  std::string name;
  double before_ns = 0;  // the baseline's median
  std::string why;  // "missing from the report", "an error: <message>", "no time in the report"
};

struct GateResult {
  GateOptions options;

  // Regressions.
  std::vector<CaseChange> now_failing;  // passed in the baseline, fails now
  std::vector<CaseChange> missing;      // passed in the baseline, not in the report or interrupted
  std::vector<CaseChange> new_failing;  // not in the baseline, fails
  std::vector<MessageChange> message_changes;
  std::vector<LatencyChange> slower;           // regressions only when latency_gated
  std::vector<LostBenchmark> lost_benchmarks;  // a time in the baseline, none now

  // Improvements.
  std::vector<CaseChange> now_passing;
  std::vector<LatencyChange> faster;

  // Reported, never gated.
  bool latency_gated = true;
  std::string latency_note;                 // why latency is not gated ("" when it is)
  std::vector<CaseChange> now_skipped;      // passed in the baseline, skipped now
  std::vector<CaseChange> still_failing;    // failed in both
  std::vector<CaseChange> gone;             // did not pass in the baseline, not in the report
  std::vector<LatencyChange> within_noise;  // medians moved past the threshold, not beyond noise
  // A time in the baseline, none now, from a case that is skipped now or fails as a known
  // defect: that case is already reported for it.
  std::vector<LostBenchmark> excused_lost;
  std::vector<std::string> missing_benchmarks;  // in the baseline only, without a time there
  std::vector<std::string> new_benchmarks;      // in the report only
  // In both, with a time now and none in the baseline to compare with (an error there, no
  // time, or a median of 0 ns, which no ratio can be taken of).
  std::vector<std::string> measured_now;
  std::vector<std::string> benchmark_errors;  // "name: message" of runs that failed now
                                              // (those not in lost_benchmarks)
  std::vector<NotComparable> not_comparable;  // message counts a side could not observe
  std::vector<KnownChange> known_failing;     // failing now as a known defect does
  std::size_t cases_compared = 0;             // cases present in both
  std::size_t new_cases = 0;                  // cases present in the report only
  std::size_t benchmarks_compared = 0;        // benchmarks present in both with a time on each side

  std::size_t regression_count() const;
  std::size_t improvement_count() const;
  bool regressed() const { return regression_count() > 0; }
};

GateResult gate(const Report& baseline, const Report& report, const GateOptions& options);

// Why `baseline` cannot be one ("" when it can): a report with "complete": false lacks the
// cases its run did not reach, so every later run would look better than it is.
std::string baseline_refusal(const Report& baseline, const std::string& name);

// Why `r` cannot be gated or gated against ("" when it can): a case id, or a benchmark entry
// (name, run type, aggregate or repetition index), that appears twice, naming both indexes
// ("report out/report.json: case id 'x' appears twice: cases[0] and cases[71]"). Which of
// the two counts would be a guess. Or a benchmark entry whose time is not one, naming the
// field: a real_time or cpu_time below 0 in any entry ("baseline b.json: benchmarks[2].
// real_time: -1 is not a time (expected a finite number >= 0)"), and a real_time that is
// null, absent or not a number, or a time_unit that is no unit, in an entry a figure is taken
// from (benchmark_runs.hpp: timed_entry): the figure would drop out of the comparison unsaid.
// Entries that legitimately have no time keep it: errors ("error_occurred": true, a lost
// figure or a noted one), and aggregates that are no location of time (stddev, cv, p90, BigO).
// `role` names the file: "report out/report.json".
std::string input_refusal(const Report& r, const std::string& role);

// Why the pair cannot be compared ("" when it can): a baseline with no case and no benchmark
// has nothing to gate against, and a report that shares no case id with a baseline that has
// cases (or, for a baseline of benchmarks only, no benchmark name) is of another suite or
// configuration; comparing would call every baseline case missing without comparing one.
std::string comparison_refusal(const Report& baseline, const Report& report,
                               const std::string& baseline_name, const std::string& report_name);

// "850 ns", "1.25 us", "3.40 ms", "2.00 s": a time for the gate's and the HTML's text.
std::string format_time_ns(double ns);

// "+28.0%", "-3.5%".
std::string format_change(double change);

}  // namespace reports
