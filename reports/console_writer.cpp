#include "reports/console_writer.hpp"

#include <algorithm>
#include <cstdio>

#include "reports/rank_state_text.hpp"
#include "reports/text_format.hpp"

namespace reports {

namespace {

// Wide enough for the longest verdict, DEADLOCK, plus one space.
constexpr std::size_t verdict_width = 9;
constexpr std::string_view detail_indent = "         ";  // under the id column
static_assert(detail_indent.size() == verdict_width);

constexpr const char* green = "\033[32m";
constexpr const char* yellow = "\033[33m";
constexpr const char* red = "\033[1;31m";
constexpr const char* dim = "\033[2m";

const char* verdict_color(const CaseResult& c) {
  if (c.skipped() || c.interrupted() || c.impl_defined()) return yellow;
  return c.passed() ? green : red;
}

// Why the verdict differs from what the status alone would suggest, or why it was skipped.
std::string note(const CaseResult& c) {
  if ((c.skipped() || c.impl_defined()) && !c.reason.empty()) {
    std::string reason = printable(c.reason);
    std::replace(reason.begin(), reason.end(), '\n', ' ');  // the note stays on its line
    return "(" + reason + ")";
  }
  if (c.interrupted()) return "(the run was stopped while it ran)";
  if (c.skipped()) return "";
  if (c.passed() && c.status == Verdict::deadlock) return "(deadlock, expected)";
  if (!c.passed() && c.status == Verdict::pass) return "(expected deadlock, ran to completion)";
  return "";
}

std::string right_aligned(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

}  // namespace

ConsoleWriter::ConsoleWriter(std::ostream& out, bool color) : out_(out), color_(color) {}

std::string ConsoleWriter::paint(std::string_view text, const char* ansi) const {
  if (!color_) return std::string(text);
  return std::string(ansi) + std::string(text) + "\033[0m";
}

// The escape codes go around the word only, so the padding keeps the columns aligned.
std::string ConsoleWriter::verdict_cell(const CaseResult& c) const {
  const std::string word = verdict_word(c);
  const std::size_t pad = word.size() < verdict_width ? verdict_width - word.size() : 1;
  return paint(word, verdict_color(c)) + std::string(pad, ' ');
}

void ConsoleWriter::case_line(const CaseResult& c, std::string_view progress) {
  std::string line = progress.empty() ? "" : paint(progress, dim) + " ";
  line += verdict_cell(c) + c.id;
  line += std::string(c.id.size() < id_width_ ? id_width_ - c.id.size() : 0, ' ');
  line += "  " + right_aligned(format_seconds(c.duration_s), 9);
  if (c.messages.measured) line += "  msgs " + std::to_string(c.messages.total);
  if (!c.messages.unobservable.empty()) line += "  msgs \u2014";  // not measured, not 0
  // What the script measured (rma.metric), e.g. a truly passive epoch's duration: the figure
  // a library's case is run for, so it belongs on the line, not only in the report files.
  for (const auto& [name, value] : c.metrics) {
    char v[32];
    std::snprintf(v, sizeof v, "%#.4g", value);
    line += "  " + name + "=" + v;
  }
  if (const std::string n = note(c); !n.empty()) line += "  " + paint(n, dim);
  // Flushed per case: a CI log piped to a file shows how far a long run got.
  out_ << line << '\n' << std::flush;
}

// Continuation lines of a multi-line text (a Lua traceback) keep the indentation.
// Rank output is made printable: a stray escape sequence must not garble the terminal.
void ConsoleWriter::indented(std::string_view indent, std::string_view text) {
  out_ << indent;
  for (char ch : printable(text)) {
    out_ << ch;
    if (ch == '\n') out_ << indent << "  ";
  }
  out_ << '\n';
}

void ConsoleWriter::details(const CaseResult& c) {
  const std::string in(detail_indent);
  for (const auto& f : c.failures) {
    const std::string rank = f.rank < 0 ? "-" : std::to_string(f.rank);
    indented(in, "rank " + rank + "  " + (f.where.empty() ? "" : f.where + ": ") + f.message);
  }
  if (!c.passed() && c.status == Verdict::pass) {
    indented(in, "expected a deadlock, but the case ran to completion");
  }
  if (!c.reason.empty()) indented(in, "reason: " + c.reason);
  for (const auto& r : c.races) {
    indented(in, "race " + race_headline(r));
    indented(in + "  ", race_access_text(r.first));
    indented(in + "  ", race_access_text(r.second));
    indented(in + "  ", r.why);
  }
  if (c.rank_states.is_array() && !c.rank_states.empty()) {
    indented(in, "rank states:");
    for (const auto& s : c.rank_states) {
      const RankStateText t = describe_rank_state(s);
      indented(in + "  ", t.headline);
      for (const auto& w : t.windows) indented(in + "    ", w);
    }
  }
  out_ << std::flush;
}

void ConsoleWriter::summary(const Report& r) {
  bool header = false;
  for (const auto& c : r.cases) {
    if (!c.failed()) continue;
    if (!header) out_ << "\nfailed:\n";
    header = true;
    out_ << "  " << verdict_cell(c) << c.id << '\n';
  }
  out_ << summary_line(r.summary) << '\n';  // never colored: scripts match it exactly
}

}  // namespace reports
