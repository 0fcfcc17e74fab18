// reports/json_writer.hpp — the machine-readable report (rmabench.report/v1).
//
// Writes to_json(report) pretty-printed with a 2-space indent; the format is described by
// reports/schema/report.schema.json and read back with report_from_json(). Strings that are
// not valid UTF-8 (bytes a crashing rank sent) are written with U+FFFD in their place
// rather than failing the whole report.
//
//   std::ofstream out("report.json");
//   reports::write_json(report, out);
#pragma once

#include <ostream>

#include "reports/model.hpp"

namespace reports {

void write_json(const Report& r, std::ostream& out);

}  // namespace reports
