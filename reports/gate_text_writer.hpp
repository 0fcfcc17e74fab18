// reports/gate_text_writer.hpp — the gate's verdict as plain text for a terminal or CI log.
//
// A verdict line (REGRESSED / OK with counts), then the regressions, the improvements, the
// latency changes when latency was not gated (and why), and notes (cases now skipped or
// still failing, changes within noise, benchmarks on one side only), one item a line.
//
//   reports::write_gate_text(reports::gate(baseline, report, {}), std::cout);
#pragma once

#include <ostream>

#include "reports/gate.hpp"

namespace reports {

void write_gate_text(const GateResult& g, std::ostream& out);

}  // namespace reports
