#include "reports/gate_markdown_writer.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "reports/gate_text_writer.hpp"
#include "reports/markdown_text.hpp"

namespace reports {

namespace {

struct Row {
  std::string what, subject, before, after;
};

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// A long list (a first run with benchmarks has hundreds) is cut to a few names and a count.
std::string names(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < 5; ++i) s += (i ? ", " : "") + md_code(v[i]);
  if (v.size() > 5) s += ", ... (" + std::to_string(v.size() - 5) + " more)";
  return s;
}

std::string or_dash(const std::string& s) {
  return s.empty() ? "—" : s;
}

Row case_row(const char* what, const CaseChange& c) {
  std::string after = or_dash(c.after);
  if (!c.detail.empty()) after += ": " + md_inline(c.detail);
  return {what, md_code(c.id), or_dash(c.before), after};
}

Row latency_row(const char* what, const LatencyChange& l) {
  char stats[96];
  if (l.u_test) {
    std::snprintf(stats, sizeof stats, "U test p=%.4f, %zu vs %zu repetitions", l.p,
                  l.before_repetitions, l.after_repetitions);
  } else {
    std::snprintf(stats, sizeof stats, "medians, %zu vs %zu repetitions", l.before_repetitions,
                  l.after_repetitions);
  }
  return {what, md_code(l.name), format_time_ns(l.before_ns),
          format_time_ns(l.after_ns) + " (**" + format_change(l.change) + "**; " + stats + ")"};
}

std::string counts_text(const MessageChange& m, bool before) {
  if (!before && !m.measured_now) return "not measured";
  std::string s;
  for (const CountChange& c : m.counts) {
    s += (s.empty() ? "" : ", ") + md_inline(c.type) + " " +
         std::to_string(before ? c.before : c.after);
  }
  return s;
}

Row message_row(const MessageChange& m) {
  std::string after = counts_text(m, false);
  if (m.declares_total) after += " (declared " + std::to_string(m.expected_total) + ")";
  return {"messages", md_code(m.id), counts_text(m, true), after};
}

void table(const std::vector<Row>& rows, std::ostream& out) {
  out << "| | case or benchmark | baseline | now |\n|---|---|---|---|\n";
  for (const Row& r : rows) {
    out << "| " << r.what << " | " << r.subject << " | " << r.before << " | " << r.after << " |\n";
  }
  out << "\n";
}

}  // namespace

void write_gate_markdown(const GateResult& g, std::ostream& out) {
  out << "## rmabench gate: "
      << (g.regressed() ? "regressed, " + plural(g.regression_count(), "regression")
                        : std::string("no regression"))
      << "\n\n";
  out << md_code(g.options.report_name) << " against baseline " << md_code(g.options.baseline_name)
      << ": " << plural(g.cases_compared, "case") << " compared (" << g.new_cases << " new), "
      << plural(g.benchmarks_compared, "benchmark") << ", "
      << plural(g.improvement_count(), "improvement")
      << (g.known_failing.empty()
              ? ""
              : ", " + plural(g.known_failing.size(), "known intermittent failure"))
      << ".\n\n";

  std::vector<Row> regressions;
  for (const auto& c : g.now_failing) regressions.push_back(case_row("now failing", c));
  for (const auto& c : g.missing) regressions.push_back(case_row("missing", c));
  for (const auto& c : g.new_failing) regressions.push_back(case_row("new, failing", c));
  for (const auto& m : g.message_changes) regressions.push_back(message_row(m));
  for (const auto& l : g.lost_benchmarks) {
    regressions.push_back(
        {"figure lost", md_code(l.name), format_time_ns(l.before_ns), md_inline(l.why)});
  }
  if (g.latency_gated) {
    for (const auto& l : g.slower) regressions.push_back(latency_row("slower", l));
  }
  if (!regressions.empty()) {
    out << "### Regressions\n\n";
    table(regressions, out);
  }

  std::vector<Row> improvements;
  for (const auto& c : g.now_passing) improvements.push_back(case_row("now passing", c));
  if (g.latency_gated) {
    for (const auto& l : g.faster) improvements.push_back(latency_row("faster", l));
  }
  if (!improvements.empty()) {
    out << "### Improvements\n\n";
    table(improvements, out);
  }

  if (!g.latency_gated) {
    out << "### Latency (not gated)\n\nLatency is reported, not gated: "
        << md_inline(g.latency_note) << ".\n\n";
    std::vector<Row> rows;
    for (const auto& l : g.slower) rows.push_back(latency_row("slower", l));
    for (const auto& l : g.faster) rows.push_back(latency_row("faster", l));
    if (!rows.empty()) table(rows, out);
  }

  std::vector<Row> known;
  for (const auto& k : g.known_failing) {
    Row r = case_row("known intermittent", k.change);
    r.after += " — known: " + md_inline(k.defect);
    known.push_back(std::move(r));
  }
  if (!known.empty()) {
    out << "### Known intermittent failures (not gated)\n\n";
    table(known, out);
  }

  std::vector<Row> notes;
  for (const auto& c : g.now_skipped) notes.push_back(case_row("now skipped", c));
  for (const auto& c : g.still_failing) notes.push_back(case_row("failing in both", c));
  for (const auto& c : g.gone) notes.push_back(case_row("gone", c));
  for (const auto& l : g.excused_lost) {
    notes.push_back({"figure lost with its case", md_code(l.name), format_time_ns(l.before_ns),
                     md_inline(l.why)});
  }
  for (const auto& l : g.within_noise) notes.push_back(latency_row("within noise", l));
  if (!g.missing_benchmarks.empty()) {
    notes.push_back({"benchmarks gone", names(g.missing_benchmarks), "no figure", "—"});
  }
  if (!g.new_benchmarks.empty()) {
    notes.push_back({"new benchmarks", names(g.new_benchmarks), "—", "present"});
  }
  if (!g.measured_now.empty()) {
    notes.push_back({"figure now", names(g.measured_now), "none to compare with", "measured"});
  }
  for (const auto& e : g.benchmark_errors)
    notes.push_back({"benchmark error", "", "", md_inline(e)});
  for (const auto& line : not_comparable_lines(g.not_comparable))
    notes.push_back({"messages not comparable", "", "—", md_inline(line)});
  if (!notes.empty()) {
    out << "<details><summary>Notes, not gated (" << notes.size() << ")</summary>\n\n";
    table(notes, out);
    out << "</details>\n";
  }
}

}  // namespace reports
