// reports/benchmark_runs.hpp — a report's Google Benchmark entries grouped into runs.
//
// `Report::benchmarks` holds Google Benchmark's JSON entries (docs/benchmarks.md): with
// --repetitions, one `iteration` entry per repetition plus `aggregate` entries (median, min,
// max, ...) that share a run_name. The HTML plots and the gate both want, per benchmark, the
// repetitions' times and the aggregates in one unit, so this groups entries by run name and
// converts times to nanoseconds. The entries were written by another program: a field that
// is missing or has the wrong type counts as absent; nothing here throws.
//
//   for (const BenchmarkRun& b : benchmark_runs(report.benchmarks)) {
//     if (auto t = b.time_ns()) plot(b.size, t->median, t->min, t->max);
//   }
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace reports {

// A location and the range around it. min == max == median when there is no spread.
struct Spread {
  double median = 0;
  double min = 0;
  double max = 0;
  std::size_t repetitions = 0;  // how many values the spread is from (0: unknown)
};

struct BenchmarkRun {
  std::string name;  // run_name (what compare.py pairs on); name for a single entry

  // rmabench's fields (docs/benchmarks.md); empty when the entries came from elsewhere.
  std::string pattern, op, sync, metric, backend, path, provider, flavor;
  std::string target;  // what the target ranks do meanwhile ("compute", ...), where recorded
  std::string impl;    // who ran it: "ref", "mpich 4.0.2", "hardware" (the floor), where recorded
  std::string
      protocol;         // the reference am path's packet protocol ("fewest", "ch3"), where recorded
  std::string case_id;  // the id of the case that measured it ("case"), where recorded
  std::int64_t ranks = 0;
  std::optional<double> size;   // bytes per operation
  std::size_t repetitions = 0;  // the entries' `repetitions` (aggregates-only runs have no samples)

  // Per repetition (iteration entries), in entry order.
  std::vector<double> times_ns;          // real_time
  std::vector<double> bytes_per_second;  // the user counter, where present
  // Location aggregates (median, min, max, mean, p50): aggregate_name -> value.
  std::map<std::string, double> time_aggregates_ns;
  std::map<std::string, double> bandwidth_aggregates;
  std::string error;  // error_message of an entry that reported an error

  // Median, min and max of the real time per iteration: the aggregates where the run has
  // them, else computed from the repetitions. nullopt when there is no time at all.
  std::optional<Spread> time_ns() const;
  std::optional<Spread> bandwidth() const;  // bytes per second, the same way
};

// Groups entries by run name, in order of first appearance. Entries that are not objects,
// have no name, or report an error contribute no values (an error is kept in `error`).
std::vector<BenchmarkRun> benchmark_runs(const nlohmann::json& benchmarks);

// Whether benchmark_runs() takes a time from the entry's `real_time`: an object with a run
// name that reports no error ("error_occurred": true) and is a repetition (`run_type`
// "iteration" or none) or a location aggregate of time (median, min, max, mean, p50). Such an
// entry is a figure and must carry one; the others (errors, stddev, cv, p90, p99, BigO) need
// none. The gate refuses a figure entry without a time rather than drop it.
bool timed_entry(const nlohmann::json& entry);

// The median of the values (mean of the middle two for an even count); NaN when empty.
double median_of(std::vector<double> values);

// Nanoseconds per unit of an entry's times: its time_unit ("ns", "us", "ms", "s"), or
// Google Benchmark's default ns when it has none (absent or ""); nullopt for anything else,
// a non-string included. The one rule the reader and the gate apply.
std::optional<double> ns_per_unit(const nlohmann::json& entry);
// What ns_per_unit takes, for the messages that refuse anything else.
inline constexpr const char* kTimeUnits = "\"ns\", \"us\", \"ms\", \"s\" or \"\" for ns";

}  // namespace reports
