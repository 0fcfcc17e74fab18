// reports/console_writer.hpp — the human-readable console view of a run.
//
// One aligned line per case as it finishes (verdict word, id, duration, message count),
// details indented under a case that did not pass (every failure, the reason, what each
// rank was blocked in), and a summary whose last line is exactly "N passed, N failed"
// (", N skipped" appended when any were skipped) — CI logs and scripts look for that line.
//
//   ConsoleWriter con(std::cout, isatty(1));
//   con.set_id_width(longest_id);              // optional: align ids of this run
//   for (...) { con.case_line(c, "[3/120 0:42]"); if (!c.passed() && !c.skipped()) con.details(c);
//   } report.finish(); con.summary(report);
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include "reports/model.hpp"

namespace reports {

class ConsoleWriter {
 public:
  static constexpr std::size_t default_id_width = 48;

  ConsoleWriter(std::ostream& out, bool color);

  // Column the ids are padded to; a longer id pushes the rest of its line right.
  void set_id_width(std::size_t width) { id_width_ = width; }

  // `progress` ("[3/120 0:42]", how far the run is) leads the line when given.
  void case_line(const CaseResult& c, std::string_view progress = {});
  // Prints what there is (failures, reason, rank states) whatever the status; callers
  // normally call it for cases that did not pass.
  void details(const CaseResult& c);
  // Reads r.summary: call r.finish() first.
  void summary(const Report& r);

 private:
  std::string paint(std::string_view text, const char* ansi) const;
  std::string verdict_cell(const CaseResult& c) const;
  void indented(std::string_view indent, std::string_view text);

  std::ostream& out_;
  bool color_;
  std::size_t id_width_ = default_id_width;
};

}  // namespace reports
