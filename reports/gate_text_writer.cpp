#include "reports/gate_text_writer.hpp"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "reports/text_format.hpp"

namespace reports {

namespace {

// Details come from scripts and ranks: keep one line of them, so every item is one line.
std::string one_line(const std::string& s) {
  const std::string p = printable(s);
  const auto nl = p.find('\n');
  return nl == std::string::npos ? p : p.substr(0, nl) + " ...";
}

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string p_value(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", p);
  return buf;
}

std::string verdict(const CaseChange& c) {
  std::string s =
      (c.before.empty() ? "new" : c.before) + " -> " + (c.after.empty() ? "missing" : c.after);
  if (!c.detail.empty()) s += " (" + one_line(c.detail) + ")";
  return s;
}

std::string latency(const LatencyChange& l) {
  std::string s = printable(l.name) + ": " + format_time_ns(l.before_ns) + " -> " +
                  format_time_ns(l.after_ns) + " (" + format_change(l.change) + "; ";
  if (l.u_test) {
    s += "U test p=" + p_value(l.p) + ", " + std::to_string(l.before_repetitions) + " vs " +
         std::to_string(l.after_repetitions) + " repetitions)";
  } else {
    s += "medians, " + std::to_string(l.before_repetitions) + " vs " +
         std::to_string(l.after_repetitions) + " repetitions)";
  }
  return s;
}

std::string messages(const MessageChange& m) {
  std::string s = printable(m.id) + ": ";
  if (!m.measured_now) {
    return s + "not measured any more (total " + std::to_string(m.counts.front().before) +
           " in the baseline)";
  }
  for (std::size_t i = 0; i < m.counts.size(); ++i) {
    const CountChange& c = m.counts[i];
    s += (i ? ", " : "") + printable(c.type) + " " + std::to_string(c.before) + " -> " +
         std::to_string(c.after);
  }
  if (m.declares_total) s += " (declared: total " + std::to_string(m.expected_total) + ")";
  return s;
}

std::string lost(const LostBenchmark& l) {
  return printable(l.name) + ": " + format_time_ns(l.before_ns) + " in the baseline, now " +
         one_line(l.why);
}

class Section {
 public:
  Section(std::ostream& out, std::string title) : out_(out), title_(std::move(title)) {}

  template <class T, class F>
  void group(const char* heading, const std::vector<T>& items, F line) {
    if (items.empty()) return;
    if (!opened_) out_ << "\n" << title_ << ":\n";
    opened_ = true;
    out_ << "  " << heading << ":\n";
    for (const auto& item : items) out_ << "    " << line(item) << "\n";
  }

 private:
  std::ostream& out_;
  std::string title_;
  bool opened_ = false;
};

std::string names(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < 5; ++i) s += (i ? ", " : "") + printable(v[i]);
  if (v.size() > 5) s += ", ... (" + std::to_string(v.size() - 5) + " more)";
  return s;
}

}  // namespace

std::vector<std::string> not_comparable_lines(const std::vector<NotComparable>& cases) {
  std::map<std::string, std::vector<std::string>> by_reason;
  for (const auto& c : cases) by_reason[c.reason].push_back(c.id);
  std::vector<std::string> lines;
  for (const auto& [reason, ids] : by_reason) {
    std::string s = plural(ids.size(), "case") + ", " + printable(reason) + ": ";
    for (std::size_t i = 0; i < ids.size() && i < 3; ++i) s += (i ? ", " : "") + printable(ids[i]);
    if (ids.size() > 3) s += ", ... (" + std::to_string(ids.size() - 3) + " more)";
    lines.push_back(s);
  }
  return lines;
}

void write_gate_text(const GateResult& g, std::ostream& out) {
  const auto id_verdict = [](const CaseChange& c) { return printable(c.id) + ": " + verdict(c); };
  out << "rmabench gate: " << printable(g.options.report_name) << " against baseline "
      << printable(g.options.baseline_name) << "\n";
  out << (g.regressed() ? "REGRESSED: " + plural(g.regression_count(), "regression")
                        : std::string("OK: no regression"))
      << ", " << plural(g.improvement_count(), "improvement")
      << (g.known_failing.empty()
              ? ""
              : ", " + plural(g.known_failing.size(), "known intermittent failure"))
      << "\n";

  Section regressions(out, "Regressions");
  regressions.group("passed in the baseline, now failing", g.now_failing, id_verdict);
  regressions.group("passed in the baseline, missing from the report", g.missing,
                    [](const CaseChange& c) { return printable(c.id); });
  regressions.group("not in the baseline, failing", g.new_failing, id_verdict);
  regressions.group("message counts changed", g.message_changes, messages);
  regressions.group("benchmarks that lost their figure", g.lost_benchmarks, lost);
  if (g.latency_gated) regressions.group("slower beyond noise", g.slower, latency);

  Section improvements(out, "Improvements");
  improvements.group("now passing", g.now_passing, id_verdict);
  if (g.latency_gated) improvements.group("faster beyond noise", g.faster, latency);

  if (!g.latency_gated) {
    out << "\nLatency not gated: " << g.latency_note << ".\n";
    Section info(out, "Latency changes, for information only");
    info.group("slower beyond noise", g.slower, latency);
    info.group("faster beyond noise", g.faster, latency);
  }

  Section known(out, "Known intermittent failures (not gated)");
  known.group("failing as a known defect does", g.known_failing, [&](const KnownChange& k) {
    return id_verdict(k.change) + "; known: " + one_line(k.defect);
  });

  Section notes(out, "Notes (not gated)");
  notes.group("passed in the baseline, skipped now", g.now_skipped, id_verdict);
  notes.group("failing in both", g.still_failing, id_verdict);
  notes.group("lost their figure with a skipped or known-failing case", g.excused_lost, lost);
  notes.group("did not pass in the baseline, not in the report", g.gone, id_verdict);
  notes.group("changed past the threshold, but within noise", g.within_noise, latency);
  const std::vector<std::string> only_baseline =
      g.missing_benchmarks.empty() ? std::vector<std::string>{}
                                   : std::vector<std::string>{names(g.missing_benchmarks)};
  const std::vector<std::string> only_report =
      g.new_benchmarks.empty() ? std::vector<std::string>{}
                               : std::vector<std::string>{names(g.new_benchmarks)};
  notes.group("benchmarks only in the baseline (no figure there)", only_baseline,
              [](const std::string& s) { return s; });
  notes.group("benchmarks only in this report", only_report,
              [](const std::string& s) { return s; });
  const std::vector<std::string> measured = g.measured_now.empty()
                                                ? std::vector<std::string>{}
                                                : std::vector<std::string>{names(g.measured_now)};
  notes.group("benchmarks with a figure now, none to compare with in the baseline", measured,
              [](const std::string& s) { return s; });
  notes.group("benchmarks that reported an error", g.benchmark_errors, one_line);
  notes.group("message counts not comparable", not_comparable_lines(g.not_comparable),
              [](const std::string& s) { return s; });

  char threshold[32];
  std::snprintf(threshold, sizeof threshold, "%g%%", g.options.threshold * 100);
  out << "\nCompared " << plural(g.cases_compared, "case") << " (" << g.new_cases << " new) and "
      << plural(g.benchmarks_compared, "benchmark") << " (threshold " << threshold << ", alpha "
      << g.options.alpha << ", U test from " << g.options.min_repetitions
      << " repetitions a side).\n";
  if (!g.not_comparable.empty())
    out << "Message counts not comparable (not observable) in "
        << plural(g.not_comparable.size(), "case")
        << ": neither failed nor passed by the count check.\n";
}

}  // namespace reports
