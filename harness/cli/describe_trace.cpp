// `rmabench describe SCRIPT --trace`: runs the pattern once (its case as `run` would, on the
// script's ranks unless -n says otherwise) with --trace, and prints what it cost: the calls
// and packets in time order, one line each, then the counts. With --svg FILE, the sequence
// diagram as well (docs/message-counts.md draws its diagrams so: docs/diagrams/generate.sh).
#include <fstream>
#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/launcher_executor.hpp"
#include "cli/pipeline.hpp"
#include "launcher/topology.hpp"
#include "reports/sequence_svg.hpp"
#include "reports/trace.hpp"

namespace harness::cli {

int describe_trace_command(DescribeArgs& args) {
  RunArgs run;
  run.input = args.script;
  run.overrides = args.overrides;
  run.overrides.trace = true;
  run.options = args.options;
  run.formats = {};
  suite::Expansion ex = expand_input(run);
  if (ex.cases.size() != 1)
    throw suite::UsageError("describe --trace runs one case, but " + args.script + " expands to " +
                            std::to_string(ex.cases.size()) + " (narrow it with -o or -n)");
  const suite::CaseSpec& spec = ex.cases.front();
  launcher::Topology topology;
  LauncherExecutor executor(run, topology, false);
  const reports::CaseResult result = executor.execute(spec).outcome.result;

  std::cout << spec.id << ": " << reports::to_string(result.status);
  if (result.messages.measured) {
    std::cout << ", " << result.messages.total << " RMA packets (";
    bool first = true;
    for (const auto& [type, n] : result.messages.by_type) {
      std::cout << (first ? "" : ", ") << type << " " << n;
      first = false;
    }
    std::cout << ")";
  }
  std::cout << "\n";
  if (result.trace.is_null()) {
    std::cout << "no trace: " << (result.reason.empty() ? "the ranks sent none" : result.reason)
              << "\n";
    return kExitFailed;
  }
  const reports::Trace t = reports::trace_from_json(result.trace);
  for (const auto& line : reports::trace_lines(t, true)) std::cout << line << "\n";
  for (const auto& f : result.failures)
    std::cout << "failure: " << (f.rank < 0 ? "harness" : "rank " + std::to_string(f.rank))
              << (f.where.empty() ? "" : " " + f.where) << ": " << f.message << "\n";
  if (!args.svg.empty()) {
    std::ofstream out(args.svg, std::ios::trunc);
    out << reports::sequence_svg(t, result.rank_states, args.title.empty() ? spec.id : args.title);
    if (!out) throw std::runtime_error("describe: cannot write " + args.svg);
  }
  return result.passed() ? kExitOk : kExitFailed;
}

}  // namespace harness::cli
