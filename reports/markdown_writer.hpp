// reports/markdown_writer.hpp — a report to read on a merge request or in a CI summary.
//
// GitHub-flavored Markdown: a title, the run context as a short table, the summary line,
// a table of every case (status, id, duration, messages), then a section per case that
// did not pass with each failure, the reason and what every rank was blocked in; Google
// Benchmark entries, if any, as a last table. Text from scripts and ranks is escaped, so a
// message cannot break a table or inject markup.
//
//   std::ofstream out("report.md");
//   reports::write_markdown(report, out);
#pragma once

#include <ostream>

#include "reports/model.hpp"

namespace reports {

void write_markdown(const Report& r, std::ostream& out);

}  // namespace reports
