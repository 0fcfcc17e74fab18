// reports/html_writer.hpp — a report as one self-contained HTML page (report.html).
//
// Inline CSS, inline SVG, no script, no network, no external font: the file can be opened
// from a CI artifact as it is. In order: the summary and run context; every case that did
// not pass, with its failures, reason and each rank's state (rank_states); the message-count
// table (each case that measured messages: total and per packet type, measured against the
// count the case declares, docs/message-counts.md, differences marked); per benchmark
// pattern (and sync mode) a latency-vs-size and a bandwidth-vs-size plot with one series
// per backend:path (and provider), medians with a min-max band where there are repetitions
// (reports/svg_plot.hpp); last, every case in a table. Text from scripts and ranks is
// escaped, so a message cannot inject markup.
//
//   std::ofstream out("report.html");
//   reports::write_html(report, out);
#pragma once

#include <ostream>

#include "reports/model.hpp"

namespace reports {

void write_html(const Report& r, std::ostream& out);

}  // namespace reports
