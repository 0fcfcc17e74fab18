#include "reports/markdown_writer.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "reports/chrome_trace_writer.hpp"
#include "reports/markdown_text.hpp"
#include "reports/rank_state_text.hpp"
#include "reports/text_format.hpp"
#include "reports/topology_rows.hpp"
#include "reports/trace.hpp"

namespace reports {

namespace {

using nlohmann::json;

// The escaping is shared with the gate's Markdown (reports/markdown_text.hpp).
std::string md(std::string_view s) {
  return md_inline(s);
}
std::string code(std::string_view s) {
  return md_code(s);
}

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

// The host in words ("packages 1, cores 2, ..., L1 data 2 × 48 KiB"), not its JSON.
std::string topology_text(const json& t) {
  if (!t.is_object()) return json_text(t);
  std::string out;
  for (const auto& tr : topology_rows(t))
    out += (out.empty() ? "" : ", ") + tr.name + " " + tr.value;
  return out;
}

void context_table(const RunContext& c, std::ostream& out) {
  std::vector<std::pair<std::string, std::string>> rows;
  auto row = [&](const char* name, const std::string& value, bool as_code) {
    if (!value.empty()) rows.emplace_back(name, as_code ? code(value) : md(value));
  };
  row("rmabench", c.rmabench_version, false);
  row("git revision", c.git_revision, true);
  row("host", c.host, false);
  row("command", c.command, true);
  row("started", c.started_at, false);
  row("options", scalars(c.options), false);
  row("topology", topology_text(c.topology), false);
  if (rows.empty()) return;
  out << "| | |\n|---|---|\n";
  for (const auto& [name, value] : rows) out << "| " << name << " | " << value << " |\n";
  out << "\n";
}

// The total a case declares: its `messages` (docs/message-counts.md's row), not a proven
// minimum; "-" when it declares none.
std::string declared_total(const MessageCounts& m) {
  auto it = m.expected.find("total");
  return it == m.expected.end() ? "-" : std::to_string(it->second);
}

// What the scripts wrote with rma.log, a list item per line, escaped like every message (a
// log line is the script's text: it may hold anything).
void case_logs(const Report& r, std::ostream& out) {
  const bool any = std::any_of(r.cases.begin(), r.cases.end(),
                               [](const CaseResult& c) { return !c.log.empty(); });
  if (!any) return;
  out << "## Logs\n\n";
  for (const auto& c : r.cases) {
    if (c.log.empty()) continue;
    out << "### " << code(c.id) << "\n\n";
    for (const auto& line : c.log) out << "- " << md(line) << "\n";
    out << "\n";
  }
}

void cases_table(const Report& r, std::ostream& out) {
  out << "## Cases\n\n";
  if (r.cases.empty()) {
    out << "No cases ran.\n\n";
    return;
  }
  out << "| status | case | duration | messages | declared |\n|---|---|---:|---:|---:|\n";
  for (const auto& c : r.cases) {
    std::string status = verdict_word(c);
    if (c.passed() && c.status == Verdict::deadlock) status += " (deadlock, expected)";
    out << "| " << status << " | " << code(c.id) << " | " << format_seconds(c.duration_s) << " | "
        << (c.messages.measured               ? std::to_string(c.messages.total)
            : c.messages.unobservable.empty() ? "-"
                                              : "\u2014")  // not observable: not measured, not 0
        << " | " << declared_total(c.messages) << " |\n";
  }
  out << "\n";
}

void failed_case(const CaseResult& c, std::ostream& out) {
  out << "### " << verdict_word(c) << " " << code(c.id) << "\n\n";
  if (!c.script.empty()) out << "Script " << code(c.script) << ", " << c.ranks << " ranks.\n\n";
  for (const auto& f : c.failures) {
    out << "- rank " << (f.rank < 0 ? std::string("-") : std::to_string(f.rank));
    if (!f.where.empty()) out << " " << code(f.where);
    out << ": " << md(f.message) << "\n";
  }
  if (c.status == Verdict::pass) out << "- expected a deadlock, but the case ran to completion\n";
  if (!c.reason.empty()) out << "- reason: " << md(c.reason) << "\n";
  for (const auto& r : c.races) {
    out << "- race " << md(r.rule) << ": " << md(r.why) << "\n  - " << md(race_access_text(r.first))
        << "\n  - " << md(race_access_text(r.second)) << "\n";
  }
  if (c.rank_states.is_array() && !c.rank_states.empty()) {
    out << "\nRank states:\n\n";
    for (const auto& s : c.rank_states) {
      const RankStateText t = describe_rank_state(s);
      out << "- " << md(t.headline) << "\n";
      for (const auto& w : t.windows) out << "  - " << md(w) << "\n";
      if (!t.counters.empty()) out << "  - " << md(t.counters) << "\n";
    }
  }
  out << "\n";
}

std::string field(const json& b, const char* key) {
  auto it = b.find(key);
  return it == b.end() ? "" : json_text(*it);
}

void benchmarks_table(const json& benchmarks, std::ostream& out) {
  if (!benchmarks.is_array() || benchmarks.empty()) return;
  out << "## Benchmarks\n\n| benchmark | implementation | iterations | real time | cpu time "
         "|\n|---|---|---:|---:|---:|\n";
  for (const auto& b : benchmarks) {
    if (!b.is_object()) continue;
    const std::string unit = field(b, "time_unit");
    auto time = [&](const char* key) {
      const std::string v = field(b, key);
      return v.empty() ? std::string("-") : md(v + (unit.empty() ? "" : " " + unit));
    };
    const std::string iterations = field(b, "iterations");
    const std::string impl = field(b, "impl");
    out << "| " << code(field(b, "name")) << " | " << (impl.empty() ? "-" : md(impl)) << " | "
        << (iterations.empty() ? "-" : md(iterations)) << " | " << time("real_time") << " | "
        << time("cpu_time") << " |\n";
  }
  out << "\n";
}

// --trace: each traced case's packets, one line each, in the order they left.
void packet_sequences(const Report& r, std::ostream& out) {
  if (!has_traces(r)) return;
  out << "## Packet sequences\n\n";
  for (const auto& c : r.cases) {
    if (c.trace.is_null()) continue;
    const Trace t = trace_from_json(c.trace);
    out << "### " << code(c.id) << "\n\n"
        << t.packets.size() << " packets (trace.json has the calls too).\n\n```\n";
    for (const auto& line : trace_lines(t, false)) out << line << "\n";
    out << "```\n\n";
  }
}

}  // namespace

void write_markdown(const Report& r, std::ostream& out) {
  out << "# rmabench report\n\n";
  context_table(r.context, out);
  out << "**" << summary_line(r.summary) << "** in " << format_seconds(r.summary.duration_s)
      << "\n\n";
  if (!r.complete) out << "**Incomplete run**: it was stopped before every case ran.\n\n";
  cases_table(r, out);
  const bool any_failed =
      std::any_of(r.cases.begin(), r.cases.end(), [](const CaseResult& c) { return c.failed(); });
  if (any_failed) {
    out << "## Failures\n\n";
    for (const auto& c : r.cases) {
      if (c.failed()) failed_case(c, out);
    }
  }
  const bool any_impl_defined = std::any_of(r.cases.begin(), r.cases.end(),
                                            [](const CaseResult& c) { return c.impl_defined(); });
  if (any_impl_defined) {
    out << "## Implementation-defined\n\nCases that did not pass where the case declares that MPI "
           "leaves the behaviour it checks to the implementation (not failures):\n\n";
    for (const auto& c : r.cases) {
      if (c.impl_defined()) failed_case(c, out);
    }
  }
  case_logs(r, out);
  packet_sequences(r, out);
  benchmarks_table(r.benchmarks, out);
}

}  // namespace reports
