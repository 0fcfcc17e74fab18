#include "reports/html_writer.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "reports/benchmark_runs.hpp"
#include "reports/gate.hpp"
#include "reports/rank_state_text.hpp"
#include "reports/sequence_svg.hpp"
#include "reports/svg_plot.hpp"
#include "reports/text_format.hpp"
#include "reports/topology_rows.hpp"
#include "reports/trace.hpp"
#include "reports/xml_text.hpp"

namespace reports {

namespace {

using nlohmann::json;

// HTML5 reads XML's escapes; xml_text also makes a rank's stray bytes visible and valid.
std::string h(std::string_view s) {
  return xml_text(s);
}

// The page's own colours stay clear of the plots' (svg_plot.hpp), which a screenshot test
// counts.
constexpr std::string_view page_css = R"(
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       margin: 0 auto; padding: 16px 24px 48px; max-width: 1320px; background: #fafafa; }
h1 { font-size: 24px; margin: 8px 0; }
h2 { font-size: 19px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 1px solid #ccc; }
h3 { font-size: 15px; margin: 18px 0 6px; }
code, pre { font: 12.5px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
pre { white-space: pre-wrap; word-break: break-word; margin: 2px 0; }
table { border-collapse: collapse; background: #fff; margin: 6px 0 12px; }
th, td { border: 1px solid #d4d4d4; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #efefef; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
nav a { margin-right: 14px; }
.summary { font-size: 16px; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-weight: 600;
         color: #fff; background: #666; }
.badge.pass { background: #1a7f37; } .badge.fail { background: #b3261e; }
.badge.skip { background: #8a6d00; }
.case-failure { background: #fff; border: 1px solid #e3b4b0; border-left: 5px solid #b3261e;
                padding: 6px 14px 10px; margin: 12px 0; }
.rank-state { border-left: 3px solid #bbb; padding-left: 10px; margin: 6px 0; }
.rank-state ul { margin: 2px 0; }
tr.mismatch td { background: #fde8e6; }
tr.mismatch td.diff { color: #8b1a1a; font-weight: 700; }
td.diff.ok { color: #1a7f37; }
.muted { color: #777; }
.plots { display: flex; flex-wrap: wrap; gap: 14px; }
figure { margin: 0; background: #fff; border: 1px solid #ddd; padding: 6px; }
figcaption { font-size: 12px; color: #555; max-width: 590px; }
details { margin: 6px 0; }
.sequence-row { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; }
.sequence-row .beside { max-width: 520px; }
)";

std::string badge(const CaseResult& c) {
  const std::string word = verdict_word(c);
  const char* cls = c.skipped() || c.interrupted() || c.impl_defined() ? "skip"
                    : c.passed()                                       ? "pass"
                                                                       : "fail";
  return "<span class=\"badge " + std::string(cls) + "\">" + h(word) + "</span>";
}

std::string anchor(std::size_t case_index) {
  return "case-" + std::to_string(case_index);
}

bool failing(const CaseResult& c) {
  return c.failed();
}

// ---- summary and context ---------------------------------------------------------------

// key=value for the scalar entries of a free-form object (options, topology).
std::string scalars(const json& obj) {
  if (!obj.is_object()) return json_text(obj);
  std::string out;
  for (const auto& [k, v] : obj.items()) {
    if (v.is_structured() && !v.is_array()) continue;
    out += (out.empty() ? "" : ", ") + k + "=" + json_text(v);
  }
  return out;
}

// The host as a reader asks about it: cores, caches, NUMA nodes, and where the ranks ran
// (the first case's binding, the same for every case of a run).
void topology_table(const json& t, const Report& r, std::ostream& out) {
  out << "<table class=\"topology\">\n";
  auto row = [&](const std::string& name, const std::string& value) {
    if (!value.empty()) out << "<tr><th>" << h(name) << "</th><td>" << h(value) << "</td></tr>\n";
  };
  for (const auto& tr : topology_rows(t)) row(tr.name, tr.value);
  std::string binding;
  if (auto it = r.context.options.find("bind"); it != r.context.options.end())
    binding = json_text(*it);
  for (const auto& c : r.cases) {
    if (c.binding.empty()) continue;
    std::string ranks;
    for (std::size_t i = 0; i < c.binding.size(); ++i)
      ranks += (i ? ", " : "") + ("rank " + std::to_string(i) + ": " + c.binding[i]);
    binding += (binding.empty() ? "" : " (") + ranks + (binding.empty() ? "" : ")");
    break;
  }
  row("binding", binding);
  out << "</table>";
}

void summary(const Report& r, std::ostream& out) {
  const Summary& s = r.summary;
  out << "<h1>rmabench report</h1>\n<p class=\"summary\"><span class=\"badge pass\">" << s.passed
      << " passed</span> <span class=\"badge " << (s.failed ? "fail" : "pass") << "\">" << s.failed
      << " failed</span>";
  if (s.interrupted) {
    out << " <span class=\"badge skip\">" << s.interrupted << " interrupted</span>";
  }
  if (s.skipped) out << " <span class=\"badge skip\">" << s.skipped << " skipped</span>";
  if (!r.complete) out << " <span class=\"badge fail\">incomplete run</span>";
  out << " &nbsp;" << h(summary_line(s)) << " in " << h(format_seconds(s.duration_s)) << "</p>\n";

  const RunContext& c = r.context;
  out << "<table class=\"context\">\n";
  auto row = [&](const char* name, const std::string& value, bool code) {
    if (value.empty()) return;
    out << "<tr><th>" << name << "</th><td>" << (code ? "<code>" : "") << h(value)
        << (code ? "</code>" : "") << "</td></tr>\n";
  };
  row("rmabench", c.rmabench_version, false);
  row("git revision", c.git_revision, true);
  row("host", c.host, false);
  row("command", c.command, true);
  row("started", c.started_at, false);
  row("options", scalars(c.options), false);
  if (c.topology.is_object() && !c.topology.empty()) {
    out << "<tr><th>topology</th><td>";
    topology_table(c.topology, r, out);
    out << "</td></tr>\n";
  }
  out << "</table>\n";
  out << "<nav><a href=\"#failures\">failures</a><a href=\"#messages\">message counts</a>"
         "<a href=\"#benchmarks\">benchmarks</a><a href=\"#cases\">all cases</a></nav>\n";
}

// ---- failures --------------------------------------------------------------------------

void rank_states(const json& states, std::ostream& out) {
  if (!states.is_array() || states.empty()) return;
  out << "<p><strong>Rank states</strong></p>\n";
  for (const auto& s : states) {
    const RankStateText t = describe_rank_state(s);
    out << "<div class=\"rank-state\"><pre>" << h(t.headline) << "</pre>";
    if (!t.windows.empty() || !t.counters.empty()) {
      out << "<ul>";
      for (const auto& w : t.windows) out << "<li><pre>" << h(w) << "</pre></li>";
      if (!t.counters.empty()) out << "<li><pre>" << h(t.counters) << "</pre></li>";
      out << "</ul>";
    }
    out << "</div>\n";
  }
}

// --check races findings: the two accesses side by side, why nothing orders them below.
void races(const std::vector<Race>& list, std::ostream& out) {
  if (list.empty()) return;
  out << "<p><strong>Races</strong></p>\n<table class=\"races\">\n";
  for (const auto& r : list) {
    out << "<tr><th colspan=\"2\">" << h(r.rule) << "</th></tr>\n<tr><td><pre>"
        << h(race_access_text(r.first)) << "</pre></td><td><pre>" << h(race_access_text(r.second))
        << "</pre></td></tr>\n<tr><td colspan=\"2\">" << h(r.why) << "</td></tr>\n";
  }
  out << "</table>\n";
}

// What the script wrote with rma.log, folded (a failing case shows it in its section, any
// other in the cases table).
void log_lines(const CaseResult& c, std::ostream& out) {
  if (c.log.empty()) return;
  out << "<details><summary>log (" << c.log.size() << " lines)</summary><pre>";
  for (const auto& line : c.log) out << h(line) << "\n";
  out << "</pre></details>\n";
}

void failed_case(const CaseResult& c, std::size_t index, std::ostream& out) {
  out << "<section class=\"case-failure\" id=\"" << anchor(index) << "\">\n<h3>" << badge(c)
      << " <code>" << h(c.id) << "</code></h3>\n<p class=\"muted\">";
  if (!c.script.empty()) out << "script <code>" << h(c.script) << "</code>, ";
  out << c.ranks << " ranks, " << h(c.backend) << ":" << h(c.path);
  if (!c.provider.empty()) out << " (" << h(c.provider) << ")";
  if (!c.progress.empty()) out << ", progress " << h(c.progress);
  out << ", " << h(format_seconds(c.duration_s)) << "</p>\n";
  if (!c.failures.empty()) {
    out << "<ul class=\"failures\">\n";
    for (const auto& f : c.failures) {
      out << "<li>" << (f.rank < 0 ? std::string("harness") : "rank " + std::to_string(f.rank));
      if (!f.where.empty()) out << " <code>" << h(f.where) << "</code>";
      out << "<pre>" << h(f.message) << "</pre></li>\n";
    }
    out << "</ul>\n";
  }
  if (c.expected == Expected::deadlock && c.status == Verdict::pass) {
    out << "<p>Expected a deadlock, but the case ran to completion.</p>\n";
  }
  if (!c.reason.empty()) out << "<p>Reason: " << h(c.reason) << "</p>\n";
  races(c.races, out);
  rank_states(c.rank_states, out);
  log_lines(c, out);
  out << "</section>\n";
}

void failures(const Report& r, std::ostream& out) {
  out << "<h2 id=\"failures\">Failures</h2>\n";
  bool any = false;
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    if (!failing(r.cases[i])) continue;
    any = true;
    failed_case(r.cases[i], i, out);
  }
  if (!any) out << "<p>No case failed.</p>\n";
  bool header = false;
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    if (!r.cases[i].impl_defined()) continue;
    if (!header)
      out << "<h2 id=\"impl-defined\">Implementation-defined</h2>\n<p>Cases that did not pass "
             "where the case declares that MPI leaves the behaviour it checks to the "
             "implementation (not failures).</p>\n";
    header = true;
    failed_case(r.cases[i], i, out);
  }
}

// ---- message counts --------------------------------------------------------------------

struct CountRow {
  std::string type;
  std::optional<std::uint64_t> declared;  // what the case declares, if it does
  std::uint64_t measured = 0;
};

std::vector<CountRow> count_rows(const MessageCounts& m) {
  std::vector<CountRow> rows;
  auto declared = [&](const std::string& t) -> std::optional<std::uint64_t> {
    auto it = m.expected.find(t);
    return it == m.expected.end() ? std::nullopt : std::optional(it->second);
  };
  rows.push_back({"total", declared("total"), m.total});
  std::set<std::string> types;
  for (const auto& [t, n] : m.by_type) types.insert(t);
  for (const auto& [t, n] : m.expected) {
    if (t != "total") types.insert(t);
  }
  for (const auto& t : types) {
    auto it = m.by_type.find(t);
    rows.push_back({t, declared(t), it == m.by_type.end() ? 0 : it->second});
  }
  return rows;
}

void message_counts(const Report& r, std::ostream& out) {
  out << "<h2 id=\"messages\">Message counts</h2>\n";
  std::vector<std::size_t> measured;
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    if (r.cases[i].messages.measured) measured.push_back(i);
  }
  if (measured.empty()) {
    out << "<p>No case measured its messages.</p>\n";
    return;
  }
  out << "<p>RMA packets sent during <code>run</code>, summed over ranks, per iteration, "
         "against what each case declares (its <code>messages</code>, from "
         "<code>docs/message-counts.md</code>). "
         "Rows that differ are marked.</p>\n";
  out << "<table class=\"counts\">\n<thead><tr><th>case</th><th>packet type</th>"
         "<th>declared</th><th>measured</th><th>difference</th></tr></thead>\n";
  for (std::size_t i : measured) {
    const CaseResult& c = r.cases[i];
    const std::vector<CountRow> rows = count_rows(c.messages);
    out << "<tbody>\n";
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const CountRow& row = rows[k];
      const bool differs = row.declared && *row.declared != row.measured;
      out << "<tr class=\""
          << (differs        ? "mismatch"
              : row.declared ? "match"
                             : "undeclared")
          << "\">";
      if (k == 0) {
        out << "<td rowspan=\"" << rows.size() << "\"><code>" << h(c.id) << "</code></td>";
      }
      out << "<td>" << h(row.type) << "</td><td class=\"n\">"
          << (row.declared ? std::to_string(*row.declared) : "\u2014") << "</td><td class=\"n\">"
          << row.measured << "</td>";
      if (!row.declared) {
        out << "<td class=\"diff muted\">not declared</td>";
      } else if (!differs) {
        out << "<td class=\"diff ok\">= declared</td>";
      } else {
        const bool above = row.measured > *row.declared;
        const std::uint64_t d = above ? row.measured - *row.declared : *row.declared - row.measured;
        out << "<td class=\"diff\">\u2260 " << (above ? "+" : "\u2212") << d
            << (above ? " above" : " below") << " the declared count</td>";
      }
      out << "</tr>\n";
    }
    out << "</tbody>\n";
  }
  out << "</table>\n";
}

// ---- sequence diagrams (--trace) -------------------------------------------------------

// Beside a case's diagram: its packet counts by type (measured against declared) and, after
// a deadlock or timeout, where each rank stopped.
void beside_diagram(const CaseResult& c, std::ostream& out) {
  out << "<div class=\"beside\">\n";
  if (c.messages.measured) {
    out << "<table class=\"counts\"><thead><tr><th>packet type</th><th>declared</th>"
           "<th>measured</th></tr></thead><tbody>\n";
    for (const CountRow& row : count_rows(c.messages)) {
      const bool differs = row.declared && *row.declared != row.measured;
      out << "<tr class=\""
          << (differs        ? "mismatch"
              : row.declared ? "match"
                             : "undeclared")
          << "\"><td>" << h(row.type) << "</td><td class=\"n\">"
          << (row.declared ? std::to_string(*row.declared) : "\u2014") << "</td><td class=\"n\">"
          << row.measured << "</td></tr>\n";
    }
    out << "</tbody></table>\n";
  } else {
    out << "<p class=\"muted\">Message counts not measured (the case did not finish "
           "<code>run</code>).</p>\n";
  }
  rank_states(c.rank_states, out);
  out << "</div>\n";
}

void sequence_diagrams(const Report& r, std::ostream& out) {
  bool any = false;
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    const CaseResult& c = r.cases[i];
    if (c.trace.is_null()) continue;
    if (!any) {
      out << "<h2 id=\"sequences\">Sequence diagrams</h2>\n<p>Every packet of <code>run</code> "
             "(<code>--trace</code>): lanes are ranks, boxes the calls, arrows the packets from "
             "when they left to when the target handled them (dashed: arrived, not handled). "
             "Time runs down, one row per moment. <code>trace.json</code> opens in Perfetto "
             "with the real times.</p>\n";
      any = true;
    }
    const Trace t = trace_from_json(c.trace);
    out << "<section class=\"sequence-case\" id=\"seq-" << i << "\">\n<h3>" << badge(c) << " <code>"
        << h(c.id) << "</code></h3>\n";
    std::uint64_t dropped = 0;
    for (auto d : t.dropped) dropped += d;
    if (dropped)
      out << "<p class=\"muted\">" << dropped
          << " earlier events were dropped (the ring was full): the diagram starts later.</p>\n";
    out << "<div class=\"sequence-row\">\n";
    if (t.packets.size() > max_diagram_packets) {
      out << "<p class=\"muted\">" << t.packets.size() << " packets: more than "
          << max_diagram_packets << " are not drawn; trace.json has them all.</p>\n";
    } else {
      out << "<figure class=\"sequence\">" << sequence_svg(t, c.rank_states) << "<figcaption>"
          << t.packets.size() << " packets, " << t.calls.size() << " calls</figcaption></figure>\n";
    }
    beside_diagram(c, out);
    out << "</div>\n</section>\n";
  }
}

// ---- benchmarks ------------------------------------------------------------------------

struct Group {
  std::string pattern, sync, op;
  std::vector<const BenchmarkRun*> runs;
};

// What varies within a plot besides backend, path and provider: those parts join the label.
struct Varies {
  bool flavor = false, ranks = false, target = false;
};

// Backend and path always (an MPI library by its name and version instead), provider where
// there is one, the am protocol where it is not the default; flavor, rank count and target mode
// only when they vary within the plot, so labels stay short.
std::string series_label(const BenchmarkRun& b, const Varies& v) {
  std::string s =
      !b.impl.empty() && b.impl != "ref" && b.impl != "hardware"
          ? b.impl
          : (b.backend.empty() ? "?" : b.backend) + ":" + (b.path.empty() ? "?" : b.path);
  if (!b.provider.empty()) s += " (" + b.provider + ")";
  if (!b.protocol.empty() && b.protocol != "fewest") s += " protocol=" + b.protocol;
  if (v.flavor && !b.flavor.empty()) s += " " + b.flavor;
  if (v.ranks && b.ranks > 0) s += " np=" + std::to_string(b.ranks);
  if (v.target && !b.target.empty()) s += " target:" + b.target;
  return printable(s);
}

Varies varies(const std::vector<const BenchmarkRun*>& runs) {
  std::set<std::string> flavors, targets;
  std::set<std::int64_t> ranks;
  for (const BenchmarkRun* b : runs) {
    flavors.insert(b->flavor);
    targets.insert(b->target);
    ranks.insert(b->ranks);
  }
  return {flavors.size() > 1, ranks.size() > 1, targets.size() > 1};
}

struct PlotData {
  Plot plot;
  std::size_t max_repetitions = 0;
  bool derived = false;  // bandwidth computed from the time per iteration
  std::map<double, std::map<std::size_t, std::string>> table;  // size -> series -> median text
};

std::string tip(const std::string& series, double size, const Spread& s, PlotUnit unit) {
  std::string t = series + ", " + format_bytes(size) + ": " + format_plot_value(s.median, unit);
  if (s.min < s.max) {
    t +=
        " (min " + format_plot_value(s.min, unit) + ", max " + format_plot_value(s.max, unit) + ")";
  }
  if (s.repetitions > 1) t += ", " + std::to_string(s.repetitions) + " repetitions";
  return t;
}

PlotData plot_of(const Group& g, bool bandwidth) {
  PlotData d;
  const std::string name = printable(g.pattern + (g.sync.empty() ? "" : " (" + g.sync + ")"));
  d.plot.title = name + (bandwidth ? ": bandwidth" : ": latency");
  d.plot.unit = bandwidth ? PlotUnit::bytes_per_second : PlotUnit::microseconds;
  d.plot.y_title = bandwidth ? "bytes per second" : "time per iteration";
  const Varies v = varies(g.runs);
  std::map<std::string, std::size_t> index;
  for (const BenchmarkRun* b : g.runs) {
    const double size = *b->size;
    std::optional<Spread> s;
    const PlotUnit unit = d.plot.unit;
    if (!bandwidth) {
      if (b->metric == "bandwidth") continue;
      s = b->time_ns();
      if (s) s = Spread{s->median / 1e3, s->min / 1e3, s->max / 1e3, s->repetitions};
    } else {
      s = b->bandwidth();
      if (!s && b->metric != "bandwidth") {
        // No counter: bytes moved per second of one iteration, slowest time -> lowest rate.
        if (auto t = b->time_ns(); t && t->min > 0) {
          s = Spread{size / (t->median * 1e-9), size / (t->max * 1e-9), size / (t->min * 1e-9),
                     t->repetitions};
          d.derived = true;
        }
      }
    }
    if (!s) continue;
    const std::string label = series_label(*b, v);
    auto [it, added] = index.try_emplace(label, d.plot.series.size());
    if (added) d.plot.series.push_back(PlotSeries{label, {}});
    d.plot.series[it->second].points.push_back(
        PlotPoint{size, s->median, s->min, s->max, tip(label, size, *s, unit)});
    d.max_repetitions = std::max(d.max_repetitions, s->repetitions);
    d.table[size][it->second] = format_plot_value(s->median, unit);
  }
  return d;
}

void figure(const PlotData& d, std::ostream& out) {
  out << "<figure>\n";
  write_svg_plot(d.plot, out);
  out << "<figcaption>Median "
      << (d.plot.unit == PlotUnit::microseconds ? "time per iteration" : "bandwidth");
  if (d.max_repetitions > 1) {
    out << " of up to " << d.max_repetitions << " repetitions; the band spans min to max";
  } else {
    out << "; one run per size, so no band";
  }
  if (d.derived) out << "; bandwidth derived as size \u00f7 time per iteration";
  out << ".</figcaption>\n</figure>\n";
}

void numbers(const PlotData& d, std::ostream& out) {
  out << "<details><summary>" << h(d.plot.title) << ": numbers</summary>\n<table><tr><th>size</th>";
  for (const auto& s : d.plot.series) out << "<th>" << h(s.label) << "</th>";
  out << "</tr>\n";
  for (const auto& [size, cells] : d.table) {
    out << "<tr><td class=\"n\">" << h(format_bytes(size)) << "</td>";
    for (std::size_t i = 0; i < d.plot.series.size(); ++i) {
      auto it = cells.find(i);
      out << "<td class=\"n\">" << (it == cells.end() ? "" : h(it->second)) << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</table></details>\n";
}

void benchmarks(const Report& r, std::ostream& out) {
  out << "<h2 id=\"benchmarks\">Benchmarks</h2>\n";
  const std::vector<BenchmarkRun> runs = benchmark_runs(r.benchmarks);
  if (runs.empty()) {
    out << "<p>No benchmarks in this report.</p>\n";
    return;
  }
  // One group per pattern and sync mode: a pattern's sync modes cost different things.
  std::vector<Group> groups;
  std::vector<const BenchmarkRun*> other;
  for (const auto& b : runs) {
    if (b.pattern.empty() || !b.size || !(*b.size > 0)) {
      other.push_back(&b);
      continue;
    }
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.pattern == b.pattern && g.sync == b.sync;
    });
    if (it == groups.end()) it = groups.insert(groups.end(), Group{b.pattern, b.sync, b.op, {}});
    it->runs.push_back(&b);
  }
  for (const Group& g : groups) {
    out << "<h3>" << h(g.pattern) << " <span class=\"muted\">";
    if (!g.op.empty()) out << "op " << h(g.op) << ", ";
    out << "sync " << h(g.sync.empty() ? "?" : g.sync);
    if (!varies(g.runs).target && !g.runs.front()->target.empty()) {
      out << ", target " << h(g.runs.front()->target);
    }
    out << "</span></h3>\n<div class=\"plots\">\n";
    std::vector<PlotData> plots;
    for (bool bandwidth : {false, true}) {
      PlotData d = plot_of(g, bandwidth);
      if (!d.plot.series.empty()) plots.push_back(std::move(d));
    }
    for (const auto& d : plots) figure(d, out);
    out << "</div>\n";
    for (const auto& d : plots) numbers(d, out);
  }
  if (!other.empty()) {
    out << "<h3>Other benchmarks</h3>\n<p class=\"muted\">Entries without rmabench's pattern "
           "and size fields (docs/benchmarks.md) are listed, not plotted.</p>\n"
           "<table><tr><th>benchmark</th><th>median time</th><th>repetitions</th></tr>\n";
    for (const BenchmarkRun* b : other) {
      const auto t = b->time_ns();
      out << "<tr><td><code>" << h(b->name) << "</code></td><td class=\"n\">"
          << (t ? h(format_time_ns(t->median)) : std::string("\u2014")) << "</td><td class=\"n\">"
          << (t ? std::to_string(t->repetitions) : std::string()) << "</td></tr>\n";
    }
    out << "</table>\n";
  }
  bool errors = false;
  for (const auto& b : runs) {
    if (b.error.empty()) continue;
    if (!errors) out << "<p>Benchmarks that reported an error:</p><ul>\n";
    errors = true;
    out << "<li><code>" << h(b.name) << "</code>: " << h(b.error) << "</li>\n";
  }
  if (errors) out << "</ul>\n";
}

// ---- all cases -------------------------------------------------------------------------

void cases(const Report& r, std::ostream& out) {
  out << "<h2 id=\"cases\">All cases</h2>\n";
  if (r.cases.empty()) {
    out << "<p>No cases ran.</p>\n";
    return;
  }
  out << "<table class=\"cases\">\n<thead><tr><th>status</th><th>case</th><th>ranks</th>"
         "<th>duration</th><th>messages</th><th>note</th></tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    const CaseResult& c = r.cases[i];
    out << "<tr><td>" << badge(c) << "</td><td>";
    if (failing(c) || c.impl_defined()) {
      out << "<a href=\"#" << anchor(i) << "\"><code>" << h(c.id) << "</code></a>";
    } else {
      out << "<code>" << h(c.id) << "</code>";
    }
    out << "</td><td class=\"n\">" << c.ranks << "</td><td class=\"n\">"
        << h(format_seconds(c.duration_s)) << "</td><td class=\"n\">"
        << (c.messages.measured ? std::to_string(c.messages.total) : "\u2014") << "</td><td>";
    if (c.passed() && c.status == Verdict::deadlock) out << "deadlock, as expected";
    if (c.skipped() || c.interrupted() || c.impl_defined()) out << h(c.reason);
    if (!c.messages.unobservable.empty())
      out << (c.reason.empty() ? "" : "; ") << h(c.messages.unobservable);
    if (!failing(c) && !c.impl_defined()) log_lines(c, out);
    out << "</td></tr>\n";
  }
  out << "</tbody></table>\n";
}

}  // namespace

void write_html(const Report& r, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>rmabench report: "
      << h(summary_line(r.summary)) << "</title>\n<style>" << page_css << svg_plot_css
      << "</style>\n</head>\n<body>\n";
  summary(r, out);
  failures(r, out);
  message_counts(r, out);
  sequence_diagrams(r, out);
  benchmarks(r, out);
  cases(r, out);
  out << "</body>\n</html>\n";
}

}  // namespace reports
