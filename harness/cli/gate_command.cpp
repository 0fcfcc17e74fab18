// `rmabench gate REPORT --baseline BASE`: compare a run's report.json with a committed
// baseline and exit 1 when it regressed (reports/gate.hpp says what counts), printing the
// diff as text or Markdown. A file that cannot be read or is not a report is a usage error
// (exit 2) naming the file and, from report_from_json, the field; so is a baseline whose run
// did not finish ("complete": false), a file with a case id or benchmark entry twice or a
// benchmark time that is not one (a negative real_time, a figure's null or missing one), and a
// pair that has nothing to compare (an empty baseline, or no case id in common: another
// suite or configuration; reports/gate.hpp). `--known FILE` excuses the failures a library is known
// to show now and then (reports/known_intermittent.hpp); a bad entry is a usage error too.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "reports/gate.hpp"
#include "reports/gate_markdown_writer.hpp"
#include "reports/gate_text_writer.hpp"

namespace harness::cli {
namespace {

reports::Report read_report(const std::string& path, const std::string& role) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw suite::UsageError(role + " " + path + ": cannot be read: " + std::strerror(errno));
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw suite::UsageError(role + " " + path + " is not JSON: " + e.what());
  }
  try {
    return reports::report_from_json(j);
  } catch (const std::runtime_error& e) {
    throw suite::UsageError(role + " " + path + " is not an rmabench report: " + e.what());
  }
}

// A missing or malformed file is a usage error naming the file and the entry's field.
std::vector<reports::KnownIntermittent> read_known(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw suite::UsageError("known " + path + ": cannot be read: " + std::strerror(errno));
  try {
    return reports::known_intermittent_from_json(nlohmann::json::parse(in));
  } catch (const nlohmann::json::exception& e) {
    throw suite::UsageError("known " + path + " is not JSON: " + e.what());
  } catch (const std::runtime_error& e) {
    throw suite::UsageError("known " + path + ": " + e.what());
  }
}

}  // namespace

int gate_command(const GateArgs& args) {
  const reports::Report baseline = read_report(args.baseline, "baseline");
  if (const std::string why = reports::baseline_refusal(baseline, args.baseline); !why.empty()) {
    throw suite::UsageError(why);
  }
  const reports::Report report = read_report(args.report, "report");
  for (const std::string& why :
       {reports::input_refusal(baseline, "baseline " + args.baseline),
        reports::input_refusal(report, "report " + args.report),
        reports::comparison_refusal(baseline, report, args.baseline, args.report)}) {
    if (!why.empty()) throw suite::UsageError(why);
  }
  if (!report.complete) {
    std::cout << "report " << args.report
              << " is incomplete (\"complete\": false): its run was stopped; the cases it did "
                 "not finish count as missing\n";
  }
  reports::GateOptions options;
  options.threshold = args.threshold;
  options.alpha = args.alpha;
  options.report_name = args.report;
  options.baseline_name = args.baseline;
  if (!args.known.empty()) options.known = read_known(args.known);
  const reports::GateResult g = reports::gate(baseline, report, options);
  if (args.format == "md") {
    reports::write_gate_markdown(g, std::cout);
  } else {
    reports::write_gate_text(g, std::cout);
  }
  std::cout.flush();
  return g.regressed() ? kExitFailed : kExitOk;
}

}  // namespace harness::cli
