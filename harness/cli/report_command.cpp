// `rmabench report DIR [--format ...]`: the report files of a run directory, rebuilt from the
// run and case records the pipeline wrote as it went (reports/run_record.hpp) — the way to a
// report after the parent was killed. Prints the summary; exit 0 when the report was written
// (whatever its cases say), 2 when DIR holds no records or they cannot be read.
#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "reports/console_writer.hpp"
#include "reports/report_dir.hpp"
#include "reports/run_record.hpp"

namespace harness::cli {

int report_command(const ReportArgs& args) {
  reports::Report r;
  try {
    r = reports::read_run_records(args.dir);
  } catch (const std::runtime_error& e) {
    throw suite::UsageError(args.dir + ": " + e.what());
  }
  reports::write_report_dir(r, args.dir, args.formats);
  reports::ConsoleWriter console(std::cout, false);
  console.summary(r);
  if (!r.complete) {
    std::cout << "incomplete run: " << r.cases.size() << " case(s) recorded"
              << (r.summary.interrupted ? ", the one in flight interrupted" : "") << "\n";
  }
  return kExitOk;
}

}  // namespace harness::cli
