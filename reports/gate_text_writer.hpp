// reports/gate_text_writer.hpp — the gate's verdict as plain text for a terminal or CI log.
//
// A verdict line (REGRESSED / OK with counts), then the regressions, the improvements, the
// latency changes when latency was not gated (and why), and notes (cases now skipped or
// still failing, changes within noise, benchmarks on one side only, message counts not
// comparable because a side could not observe them), one item a line.
//
//   reports::write_gate_text(reports::gate(baseline, report, {}), std::cout);
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "reports/gate.hpp"

namespace reports {

void write_gate_text(const GateResult& g, std::ostream& out);

// One line per reason: "12 cases, not observable in mpich 4.0.2: a, b, c, ... (9 more)".
std::vector<std::string> not_comparable_lines(const std::vector<NotComparable>& cases);

}  // namespace reports
