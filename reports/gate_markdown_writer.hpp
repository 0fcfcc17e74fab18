// reports/gate_markdown_writer.hpp — the gate's verdict as Markdown, for a pull-request
// comment (`rmabench gate ... --format md`).
//
// A heading with the verdict, a line naming the two reports, a table of regressions and one
// of improvements (what, case or benchmark, baseline, now), the latency changes under their
// own heading when latency was not gated (saying why), and notes in a collapsed block.
//
//   reports::write_gate_markdown(reports::gate(baseline, report, {}), out);
#pragma once

#include <ostream>

#include "reports/gate.hpp"

namespace reports {

void write_gate_markdown(const GateResult& g, std::ostream& out);

}  // namespace reports
