// `rmabench report DIR [--format ...]`: the report files of a run directory, rebuilt from the
// run and case records the pipeline wrote as it went (reports/run_record.hpp) — the way to a
// report after the parent was killed. Prints the summary; exit 0 when the report was written
// (whatever its cases say), 2 when DIR holds no records or run.json cannot be read, and 2
// too, after writing the report from the rest, when a case record or a rows line is damaged.
#include <iostream>
#include <string>
#include <vector>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "reports/console_writer.hpp"
#include "reports/report_dir.hpp"
#include "reports/run_record.hpp"

namespace harness::cli {

int report_command(const ReportArgs& args) {
  reports::Report r;
  std::vector<std::string> damaged;
  try {
    r = reports::read_run_records(args.dir, &damaged);
  } catch (const std::runtime_error& e) {
    throw suite::UsageError(args.dir + ": " + e.what());
  }
  reports::write_report_dir(r, args.dir, args.formats);
  reports::ConsoleWriter console(std::cout, false);
  console.summary(r);
  if (!r.complete) {
    std::cout << "incomplete run: " << r.cases.size() << " case(s) recorded"
              << (r.summary.interrupted
                      ? ", " + std::to_string(r.summary.interrupted) + " without a verdict"
                      : "")
              << "\n";
  }
  // The report holds everything else; what was damaged is named, and the exit says so.
  for (const auto& d : damaged) std::cerr << "rmabench: damaged record: " << d << "\n";
  if (!damaged.empty()) {
    std::cerr << "rmabench: " << damaged.size()
              << " damaged record(s): the report was rebuilt from the rest (\"complete\": false)\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace harness::cli
