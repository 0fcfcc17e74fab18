#include "reports/benchmark_runs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace reports {

namespace {

using nlohmann::json;

std::string string_field(const json& e, const char* key) {
  auto it = e.find(key);
  return it != e.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<double> number_field(const json& e, const char* key) {
  auto it = e.find(key);
  if (it == e.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

// Only aggregates that are a location of the distribution; stddev and cv are not times
// (cv is a ratio even though Google Benchmark writes it in real_time).
bool location_aggregate(std::string_view name) {
  return name == "median" || name == "min" || name == "max" || name == "mean" || name == "p50";
}

// The run name: run_name, else the name (an aggregate's without its "_<aggregate>" suffix).
std::string run_name_of(const json& e) {
  std::string name = string_field(e, "run_name");
  if (!name.empty()) return name;
  name = string_field(e, "name");
  // An aggregate without run_name: its name is the run name plus "_<aggregate>".
  const std::string agg = string_field(e, "aggregate_name");
  if (string_field(e, "run_type") == "aggregate" && !agg.empty() && name.size() > agg.size() + 1 &&
      name.compare(name.size() - agg.size() - 1, std::string::npos, "_" + agg) == 0) {
    name.resize(name.size() - agg.size() - 1);
  }
  return name;
}

bool is_error(const json& e) {
  const auto err = e.find("error_occurred");
  return err != e.end() && err->is_boolean() && err->get<bool>();
}

// An aggregate whose real_time is a time the run's figure is taken from.
bool time_aggregate(const json& e) {
  const std::string agg_unit = string_field(e, "aggregate_unit");
  return location_aggregate(string_field(e, "aggregate_name")) &&
         (agg_unit.empty() || agg_unit == "time");
}

void fill_fields(BenchmarkRun& run, const json& e) {
  // The first entry that has a field wins: aggregates repeat them.
  auto set = [&](std::string& field, const char* key) {
    if (field.empty()) field = string_field(e, key);
  };
  set(run.pattern, "pattern");
  set(run.op, "op");
  set(run.sync, "sync");
  set(run.metric, "metric");
  set(run.backend, "backend");
  set(run.path, "path");
  set(run.provider, "provider");
  set(run.flavor, "flavor");
  set(run.target, "target");
  set(run.impl, "impl");
  set(run.protocol, "protocol");
  set(run.case_id, "case");
  if (run.ranks == 0) {
    if (auto r = number_field(e, "ranks")) run.ranks = static_cast<std::int64_t>(*r);
  }
  if (!run.size) {
    if (auto s = number_field(e, "size"); s && *s >= 0) run.size = s;
  }
  if (run.repetitions == 0) {
    if (auto r = number_field(e, "repetitions"); r && *r >= 1) {
      run.repetitions = static_cast<std::size_t>(*r);
    }
  }
}

std::optional<Spread> spread(const std::vector<double>& samples,
                             const std::map<std::string, double>& aggregates,
                             std::size_t declared_repetitions) {
  auto aggregate = [&](const char* name) -> std::optional<double> {
    auto it = aggregates.find(name);
    return it == aggregates.end() ? std::nullopt : std::optional<double>(it->second);
  };
  std::optional<double> med = aggregate("median");
  if (!med) med = aggregate("p50");
  if (!med && !samples.empty()) med = median_of(samples);
  if (!med) med = aggregate("mean");
  if (!med) return std::nullopt;

  Spread s;
  s.median = *med;
  const auto [lo, hi] = samples.empty()
                            ? std::pair(*med, *med)
                            : std::pair(*std::min_element(samples.begin(), samples.end()),
                                        *std::max_element(samples.begin(), samples.end()));
  s.min = aggregate("min").value_or(lo);
  s.max = aggregate("max").value_or(hi);
  // A median aggregate from more repetitions than the entries kept still bounds the band.
  s.min = std::min(s.min, s.median);
  s.max = std::max(s.max, s.median);
  s.repetitions = samples.empty() ? declared_repetitions : samples.size();
  return s;
}

}  // namespace

double median_of(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::optional<double> ns_per_unit(const json& entry) {
  const auto u = entry.find("time_unit");
  if (u == entry.end()) return 1.0;
  if (!u->is_string()) return std::nullopt;
  const std::string& time_unit = u->get_ref<const std::string&>();
  if (time_unit.empty() || time_unit == "ns") return 1.0;
  if (time_unit == "us") return 1e3;
  if (time_unit == "ms") return 1e6;
  if (time_unit == "s") return 1e9;
  return std::nullopt;
}

std::optional<Spread> BenchmarkRun::time_ns() const {
  return spread(times_ns, time_aggregates_ns, repetitions);
}

std::optional<Spread> BenchmarkRun::bandwidth() const {
  return spread(bytes_per_second, bandwidth_aggregates, repetitions);
}

bool timed_entry(const nlohmann::json& e) {
  if (!e.is_object() || run_name_of(e).empty() || is_error(e)) return false;
  return string_field(e, "run_type") != "aggregate" || time_aggregate(e);
}

std::vector<BenchmarkRun> benchmark_runs(const nlohmann::json& benchmarks) {
  std::vector<BenchmarkRun> runs;
  if (!benchmarks.is_array()) return runs;
  std::unordered_map<std::string, std::size_t> index;
  for (const json& e : benchmarks) {
    if (!e.is_object()) continue;
    const bool is_aggregate = string_field(e, "run_type") == "aggregate";
    const std::string name = run_name_of(e);
    if (name.empty()) continue;
    auto [it, added] = index.try_emplace(name, runs.size());
    if (added) {
      runs.emplace_back();
      runs.back().name = name;
    }
    BenchmarkRun& run = runs[it->second];
    fill_fields(run, e);

    if (is_error(e)) {
      if (run.error.empty()) run.error = string_field(e, "error_message");
      if (run.error.empty()) run.error = "error";
      continue;
    }
    const auto unit = ns_per_unit(e);
    const auto real_time = number_field(e, "real_time");
    const auto bps = number_field(e, "bytes_per_second");
    if (is_aggregate) {
      const std::string agg = string_field(e, "aggregate_name");
      if (!location_aggregate(agg)) continue;
      if (real_time && unit && time_aggregate(e)) run.time_aggregates_ns[agg] = *real_time * *unit;
      if (bps) run.bandwidth_aggregates[agg] = *bps;
    } else {
      if (real_time && unit) run.times_ns.push_back(*real_time * *unit);
      if (bps) run.bytes_per_second.push_back(*bps);
    }
  }
  return runs;
}

}  // namespace reports
