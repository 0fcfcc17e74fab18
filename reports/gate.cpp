#include "reports/gate.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "reports/benchmark_runs.hpp"
#include "reports/mann_whitney.hpp"
#include "reports/text_format.hpp"

namespace reports {

namespace {

bool failing(const CaseResult& c) {
  return c.failed();
}

std::string failure_text(const Failure& f) {
  std::string where = f.where.empty() ? "" : f.where + ": ";
  if (f.rank >= 0) where = "rank " + std::to_string(f.rank) + " " + where;
  return printable(where + f.message);
}

std::string first_detail(const CaseResult& c) {
  if (!c.failures.empty()) return failure_text(c.failures.front());
  if (c.expected == Expected::deadlock && c.status == Verdict::pass) {
    return "expected a deadlock, but the case ran to completion";
  }
  return printable(c.reason);
}

CaseChange change_of(const CaseResult* before, const CaseResult* after) {
  CaseChange ch;
  ch.id = before ? before->id : after->id;
  if (before) ch.before = verdict_word(*before);
  if (after) {
    ch.after = verdict_word(*after);
    ch.detail = first_detail(*after);
  }
  return ch;
}

// Total first, then every packet type whose count differs (a type absent on one side
// counts 0 there: by_type lists non-zero counts only).
std::vector<CountChange> count_changes(const MessageCounts& before, const MessageCounts& after) {
  std::vector<CountChange> out;
  if (before.total != after.total) out.push_back({"total", before.total, after.total});
  std::set<std::string> types;
  for (const auto& [t, n] : before.by_type) types.insert(t);
  for (const auto& [t, n] : after.by_type) types.insert(t);
  for (const auto& t : types) {
    const auto b = before.by_type.find(t);
    const auto a = after.by_type.find(t);
    const std::uint64_t nb = b == before.by_type.end() ? 0 : b->second;
    const std::uint64_t na = a == after.by_type.end() ? 0 : a->second;
    if (nb != na) out.push_back({t, nb, na});
  }
  return out;
}

void compare_messages(const CaseResult& before, const CaseResult& after, GateResult& g) {
  // Null on either side: nothing to compare, which is said, not taken as equal.
  const std::string& unobservable = !after.messages.unobservable.empty()
                                        ? after.messages.unobservable
                                        : before.messages.unobservable;
  if (!unobservable.empty()) {
    if (!before.skipped() && !after.skipped()) g.not_comparable.push_back({after.id, unobservable});
    return;
  }
  if (!before.messages.measured) return;
  // A count the script says depends on timing is not a regression signal either way.
  if (before.messages.varies || after.messages.varies) return;
  MessageChange m;
  m.id = after.id;
  if (auto e = after.messages.expected.find("total"); e != after.messages.expected.end()) {
    m.declares_total = true;
    m.expected_total = e->second;
  }
  if (after.messages.measured) {
    m.counts = count_changes(before.messages, after.messages);
    if (m.counts.empty()) return;
  } else {
    // A case that now fails or is skipped is reported for that; a case that passes without
    // its count lost the check the baseline had.
    if (!after.passed()) return;
    m.measured_now = false;
    m.counts.push_back({"total", before.messages.total, 0});
  }
  g.message_changes.push_back(std::move(m));
}

// Files a failing `c` under known_failing, with the failure that matched as its detail, when
// it fails as a known intermittent defect does; false when it does not.
bool file_if_known(GateResult& g, const CaseResult* before, const CaseResult& c) {
  const auto m = known_failure(g.options.known, c);
  if (!m) return false;
  CaseChange ch = change_of(before, &c);
  ch.detail = m->failure >= 0 ? failure_text(c.failures[static_cast<std::size_t>(m->failure)])
                              : printable(c.reason);
  g.known_failing.push_back({std::move(ch), m->entry->defect});
  return true;
}

void compare_cases(const Report& baseline, const Report& report, GateResult& g) {
  std::unordered_map<std::string, const CaseResult*> now;
  for (const auto& c : report.cases) now.try_emplace(c.id, &c);
  std::set<std::string> in_baseline;
  for (const auto& b : baseline.cases) {
    if (!in_baseline.insert(b.id).second) continue;  // a duplicate id: the first one counts
    const auto it = now.find(b.id);
    if (it == now.end()) {
      (b.passed() ? g.missing : g.gone).push_back(change_of(&b, nullptr));
      continue;
    }
    const CaseResult& c = *it->second;
    // Interrupted: the run ended while it ran, so it was not checked; as if it were missing.
    if (c.interrupted()) {
      (b.passed() ? g.missing : g.gone).push_back(change_of(&b, &c));
      continue;
    }
    ++g.cases_compared;
    if (b.passed() && failing(c)) {
      // An excused failure is listed with its defect; its counts are not compared either
      // (a run the defect cut short counts what it got to).
      if (file_if_known(g, &b, c)) continue;
      g.now_failing.push_back(change_of(&b, &c));
    } else if (b.passed() && c.skipped()) {
      g.now_skipped.push_back(change_of(&b, &c));
    } else if (!b.passed() && c.passed()) {
      g.now_passing.push_back(change_of(&b, &c));
    } else if (failing(b) && failing(c)) {
      g.still_failing.push_back(change_of(&b, &c));
    }
    compare_messages(b, c, g);
  }
  std::set<std::string> seen;
  for (const auto& c : report.cases) {
    if (in_baseline.count(c.id) || !seen.insert(c.id).second) continue;
    ++g.new_cases;
    if (failing(c) && !file_if_known(g, nullptr, c))
      g.new_failing.push_back(change_of(nullptr, &c));
  }
}

void compare_benchmarks(const Report& baseline, const Report& report, GateResult& g) {
  const GateOptions& o = g.options;
  const std::vector<BenchmarkRun> before = benchmark_runs(baseline.benchmarks);
  const std::vector<BenchmarkRun> after = benchmark_runs(report.benchmarks);
  std::unordered_map<std::string, const BenchmarkRun*> now;
  for (const auto& r : after) now.emplace(r.name, &r);
  std::set<std::string> in_baseline;
  std::set<std::string> lost;
  // The cases the gate excused or only notes: a figure they lost is noted with them.
  std::set<std::string> excused;
  for (const auto& c : g.now_skipped) excused.insert(c.id);
  for (const auto& k : g.known_failing) excused.insert(k.change.id);
  auto lose = [&](const BenchmarkRun& b, double before_ns, std::string why) {
    (excused.count(b.case_id) ? g.excused_lost : g.lost_benchmarks)
        .push_back({b.name, before_ns, std::move(why)});
  };
  for (const auto& b : before) {
    in_baseline.insert(b.name);
    const auto tb = b.time_ns();
    const auto it = now.find(b.name);
    if (it == now.end()) {
      // A figure the baseline had is lost; a benchmark that had none there is only noted.
      if (tb) {
        lose(b, tb->median, "missing from the report");
      } else {
        g.missing_benchmarks.push_back(b.name);
      }
      continue;
    }
    const BenchmarkRun& a = *it->second;
    const auto ta = a.time_ns();
    if (tb && !ta) {
      lose(b, tb->median,
           a.error.empty() ? "no time in the report" : printable("an error: " + a.error));
      lost.insert(a.name);
      continue;
    }
    if (!ta) continue;
    if (!tb || !(tb->median > 0)) {
      g.measured_now.push_back(b.name);  // nothing to compare with, but said
      continue;
    }
    ++g.benchmarks_compared;

    LatencyChange ch;
    ch.name = b.name;
    ch.before_ns = tb->median;
    ch.after_ns = ta->median;
    ch.change = ta->median / tb->median - 1;
    ch.before_repetitions = tb->repetitions;
    ch.after_repetitions = ta->repetitions;
    bool beyond_noise = false;
    if (b.times_ns.size() >= o.min_repetitions && a.times_ns.size() >= o.min_repetitions) {
      ch.u_test = true;
      ch.p = mann_whitney_u(b.times_ns, a.times_ns).p;
      beyond_noise = ch.p < o.alpha;
    } else if (ch.change > 0) {
      beyond_noise = ta->min > tb->max;  // equal to the medians when there is no band
    } else {
      beyond_noise = ta->max < tb->min;
    }
    if (std::abs(ch.change) <= o.threshold) continue;
    if (!beyond_noise) {
      g.within_noise.push_back(ch);
    } else if (ch.change > 0) {
      g.slower.push_back(ch);
    } else {
      g.faster.push_back(ch);
    }
  }
  for (const auto& a : after) {
    if (!in_baseline.count(a.name)) g.new_benchmarks.push_back(a.name);
    if (!a.error.empty() && !lost.count(a.name))
      g.benchmark_errors.push_back(printable(a.name + ": " + a.error));
  }
}

std::string short_json(const nlohmann::json& j) {
  std::string s = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

// Why entry `i`'s times cannot be read ("" when they can). real_time and cpu_time are a time
// per iteration, or for a cv aggregate a ratio, never negative: a number below 0 is refused in
// any entry. An entry the figure is taken from (benchmark_runs.hpp: timed_entry) must have a
// real time: null or absent there would drop the figure from the comparison. Elsewhere
// (errors, stddev, cv, BigO) null or absent is how Google Benchmark writes "no value".
std::string time_refusal(const nlohmann::json& e, std::size_t i) {
  constexpr const char* expected = "(expected a finite number >= 0)";
  const std::string at = "benchmarks[" + std::to_string(i) + "].";
  for (const char* key : {"real_time", "cpu_time"}) {
    const auto v = e.find(key);
    if (v == e.end() || !v->is_number()) continue;
    const double t = v->get<double>();
    if (!std::isfinite(t) || t < 0) {
      return at + key + ": " + short_json(*v) + " is not a time " + expected;
    }
  }
  if (!timed_entry(e)) return "";
  const std::string no_time =
      " (expected a finite number >= 0; a run that has no time says \"error_occurred\": true)";
  const auto v = e.find("real_time");
  if (v == e.end()) return at + "real_time is missing" + no_time;
  if (!v->is_number()) return at + "real_time: " + short_json(*v) + " is not a time" + no_time;
  const auto u = e.find("time_unit");
  const bool no_unit = u == e.end() || (u->is_string() && u->get<std::string>().empty());
  const std::optional<double> ns = ns_per_unit(e);
  if (!ns) {
    return at + "time_unit: " + short_json(*u) + " is not a unit (expected " + kTimeUnits + ")";
  }
  if (!std::isfinite(v->get<double>() * *ns)) {
    return at + "real_time: " + short_json(*v) + " " + (no_unit ? "ns" : u->get<std::string>()) +
           " is too large (expected a time that fits a double in ns)";
  }
  return "";
}

}  // namespace

std::size_t GateResult::regression_count() const {
  return now_failing.size() + missing.size() + new_failing.size() + message_changes.size() +
         lost_benchmarks.size() + (latency_gated ? slower.size() : 0);
}

std::size_t GateResult::improvement_count() const {
  return now_passing.size() + (latency_gated ? faster.size() : 0);
}

GateResult gate(const Report& baseline, const Report& report, const GateOptions& options) {
  GateResult g;
  g.options = options;
  if (baseline.context.host != report.context.host) {
    g.latency_gated = false;
    g.latency_note = "the baseline was taken on host '" + printable(baseline.context.host) +
                     "', this run on '" + printable(report.context.host) + "'";
  } else if (baseline.context.topology != report.context.topology) {
    g.latency_gated = false;
    g.latency_note = "the host topology differs: baseline " +
                     short_json(baseline.context.topology) + ", this run " +
                     short_json(report.context.topology);
  }
  compare_cases(baseline, report, g);
  compare_benchmarks(baseline, report, g);
  return g;
}

std::string baseline_refusal(const Report& baseline, const std::string& name) {
  if (baseline.complete) return "";
  return "baseline " + name +
         " is an incomplete report (\"complete\": false: its run was stopped before every "
         "case finished); a baseline must come from a run that finished";
}

std::string input_refusal(const Report& r, const std::string& role) {
  std::unordered_map<std::string, std::size_t> cases;
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    const auto [it, added] = cases.try_emplace(r.cases[i].id, i);
    if (!added) {
      return role + ": case id '" + printable(r.cases[i].id) + "' appears twice: cases[" +
             std::to_string(it->second) + "] and cases[" + std::to_string(i) + "]";
    }
  }
  // An entry is a benchmark's repetition or aggregate: its name with the run type and the
  // aggregate or repetition index. Iteration entries without a repetition_index cannot be
  // told apart from repetitions, so they are not compared.
  std::map<std::string, std::size_t> entries;
  const nlohmann::json& list = r.benchmarks;
  for (std::size_t i = 0; list.is_array() && i < list.size(); ++i) {
    const nlohmann::json& e = list[i];
    if (!e.is_object()) continue;
    if (const std::string why = time_refusal(e, i); !why.empty()) return role + ": " + why;
    if (!e.contains("name") || !e["name"].is_string()) continue;
    const std::string name = e["name"].get<std::string>();
    const std::string type = e.value("run_type", std::string("iteration"));
    std::string key, what;
    if (type == "aggregate") {
      const std::string agg = e.value("aggregate_name", std::string());
      key = "a:" + agg;
      what = agg.empty() ? "aggregate" : "aggregate " + agg;
    } else if (const auto ri = e.find("repetition_index");
               ri != e.end() && ri->is_number_unsigned()) {
      key = "r:" + std::to_string(ri->get<std::uint64_t>());
      what = "repetition " + std::to_string(ri->get<std::uint64_t>());
    } else {
      continue;
    }
    const auto [it, added] = entries.try_emplace(name + '\0' + key, i);
    if (!added) {
      return role + ": benchmark '" + printable(name) + "' (" + what +
             ") appears twice: benchmarks[" + std::to_string(it->second) + "] and benchmarks[" +
             std::to_string(i) + "]";
    }
  }
  return "";
}

std::string comparison_refusal(const Report& baseline, const Report& report,
                               const std::string& baseline_name, const std::string& report_name) {
  const std::vector<BenchmarkRun> before = benchmark_runs(baseline.benchmarks);
  if (baseline.cases.empty() && before.empty()) {
    return "baseline " + baseline_name + " has no case and no benchmark: nothing to gate against";
  }
  if (!baseline.cases.empty()) {
    std::set<std::string> ids;
    for (const auto& c : baseline.cases) ids.insert(c.id);
    for (const auto& c : report.cases) {
      if (ids.count(c.id)) return "";
    }
    if (report.cases.empty()) {
      // Stopped before its first case: every case is missing, which the gate reports (exit 1).
      if (!report.complete) return "";
      return "report " + report_name + " has no case to compare with the " +
             std::to_string(baseline.cases.size()) + " of baseline " + baseline_name;
    }
    return "report " + report_name + " (" + std::to_string(report.cases.size()) +
           " cases) and baseline " + baseline_name + " (" + std::to_string(baseline.cases.size()) +
           " cases) share no case id: probably another suite or configuration (e.g. '" +
           printable(baseline.cases.front().id) + "' in the baseline, '" +
           printable(report.cases.front().id) + "' in the report)";
  }
  std::set<std::string> names;
  for (const auto& b : before) names.insert(b.name);
  for (const auto& a : benchmark_runs(report.benchmarks)) {
    if (names.count(a.name)) return "";
  }
  return "report " + report_name + " and baseline " + baseline_name +
         " (benchmarks only) share no benchmark: probably another suite or configuration (e.g. '" +
         printable(before.front().name) + "' in the baseline)";
}

std::string format_time_ns(double ns) {
  if (!std::isfinite(ns)) return "?";
  const char* unit = "ns";
  double v = ns;
  if (std::abs(ns) >= 1e9) {
    unit = "s";
    v = ns / 1e9;
  } else if (std::abs(ns) >= 1e6) {
    unit = "ms";
    v = ns / 1e6;
  } else if (std::abs(ns) >= 1e3) {
    unit = "us";
    v = ns / 1e3;
  }
  const double a = std::abs(v);
  const int decimals = a < 10 ? 3 : a < 100 ? 2 : a < 1000 ? 1 : 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, v, unit);
  return buf;
}

std::string format_change(double change) {
  if (!std::isfinite(change)) return "?";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", change * 100);
  return buf;
}

}  // namespace reports
