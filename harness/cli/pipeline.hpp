// pipeline.hpp — the one run pipeline behind `rmabench run`, `rmabench bench` and a run
// started by an external PMIx launcher: the report context, the case loop with its stop
// check (SIGINT/SIGTERM, handled here and only here), the console (case k of N, elapsed),
// every report format and the exit code (cli/app.hpp). What differs between the modes is
// how one case is carried out: a CaseExecutor.
//
//   suite::Expansion ex = expand_input(args);           // cases, or UsageError
//   LauncherExecutor exec(args, topology);               // cli/launcher_executor.hpp
//   return run_pipeline(args, plan, exec);
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "launcher/launcher.hpp"
#include "suite/manifest.hpp"

namespace harness::cli {

// One case carried out.
struct Executed {
  launcher::CaseOutcome outcome;
};

class CaseExecutor {
 public:
  virtual ~CaseExecutor() = default;
  // Runs one case. Throws launcher::LaunchError when it cannot be carried out at all: the
  // run stops there (exit 3), and the report keeps the cases before it.
  virtual Executed execute(const suite::CaseSpec& spec) = 0;
  // Rewrite the report files after every case, so a job a launcher kills keeps what finished.
  virtual bool writes_after_each_case() const { return false; }
  // Called before the first case with what records benchmark entries of the case in flight
  // as they arrive (a sweep killed halfway keeps its finished rows), and with an empty
  // function when the run ends. An executor that sees them only at a case's end may ignore
  // it.
  using Figures = std::function<void(const nlohmann::json& entries)>;
  virtual void on_figures(Figures) {}
};

// What a run is, besides its cases.
struct RunPlan {
  suite::Expansion expansion;
  std::string command;                                 // the report context's command
  nlohmann::json options = nlohmann::json::object();   // the report context's options
  nlohmann::json topology = nlohmann::json::object();  // the host's (launcher/topology.hpp)
  bool bench_table = false;                            // print the OSU-style tables
};

// Moves the -o name=value arguments into args.overrides.options (UsageError when malformed).
void parse_script_options(RunArgs& args);

// The cases `args.inputs` (else `args.input`) expand to, after -o, input after input, each
// with the ids it has alone; UsageError when there are none or one id comes twice.
suite::Expansion expand_input(RunArgs& args);

// Runs the plan's cases one after another and returns the process's exit code: 0 all
// passed, 1 a case failed, 3 the run could not go on (or, before the first case, the
// --report-dir cannot hold its records), 4 it was stopped by a signal. The report files are
// written whatever happened, the cases that did not run left out.
int run_pipeline(const RunArgs& args, const RunPlan& plan, CaseExecutor& executor);

}  // namespace harness::cli
