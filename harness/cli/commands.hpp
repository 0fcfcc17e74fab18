// commands.hpp — the subcommands behind the command line; each returns the process's exit
// code and throws UsageError (exit 2) for what the user got wrong.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mpi/mpi_start.hpp"
#include "suite/manifest.hpp"

namespace harness::cli {

struct RunArgs {
  std::string input;                // the script or suite; several: their names, joined
  std::vector<std::string> inputs;  // run, bench: scripts and suites, run in this order
  suite::Overrides overrides;
  std::vector<std::string> options;  // -o name=value, as given
  std::string report_dir;
  std::vector<std::string> formats;
  bool verbose = false;
  std::string rank_exec;     // --rank-exec: a command prefix per rank, "{rank}" substituted
  std::string impl = "ref";  // --impl: ref, or an MPI (mpi/mpi_launch.hpp)
  std::vector<std::string> mpi_args;  // --mpi-arg: words for the MPI's launcher
  std::vector<std::string> mpi_env;   // --mpi-env NAME=VALUE for the MPI's ranks
  mpi::StartOptions mpi_start;        // --mpi-start, --mpi-hosts, ...: how the MPI's ranks start
  std::string command_line;
};

int run_command(RunArgs& args);
// The same, as one task of a job an external PMIx launcher started.
int run_under_pmix(RunArgs& args);

// `rmabench bench`: the cases of a script or suite, replayed under Google Benchmark.
struct BenchArgs {
  RunArgs run;  // input, matrix, options, report dir
  // Absent when not given; given empty (--sizes=) is an error, not "the script's own".
  std::optional<std::string> sizes;  // "1:4M" or "8,64,1K"; sets the scripts' `size` option
  std::optional<std::string> sync;   // "lock,flush"; sets the scripts' `sync` option
  int repetitions = 1;
  double min_time_s = 0.05;  // Google Benchmark's minimum time per benchmark
  std::string target_mode =
      "wait";             // wait, recv, compute (a list) or both: the passive target during batches
  bool no_floor = false;  // skip the floor case and the round trips before each figure
};
int bench_command(BenchArgs& args);

// `rmabench gate`: exit 0 when nothing regressed, 1 when something did (reports/gate.hpp).
struct GateArgs {
  std::string report;
  std::string baseline;
  std::string format = "text";  // text | md
  double threshold = 0.05;      // smallest relative slowdown of a median that counts
  double alpha = 0.05;          // significance level of the U test
  std::string known;            // known intermittent failures (reports/known_intermittent.hpp)
};
int gate_command(const GateArgs& args);
// `rmabench report DIR`: rebuilds a run directory's report files from its records
// (reports/run_record.hpp), e.g. after the run was killed.
struct ReportArgs {
  std::string dir;
  std::vector<std::string> formats;
};
int report_command(const ReportArgs& args);
int list_command(RunArgs& args);
int describe_command(const std::string& script);
// `rmabench describe SCRIPT --trace`: the pattern run once, its packet sequence printed.
struct DescribeArgs {
  std::string script;
  bool trace = false;
  suite::Overrides overrides;        // -n, --progress, --protocol, --eager-limit, ...
  std::vector<std::string> options;  // -o name=value
  std::string svg;                   // --svg FILE: the sequence diagram
  std::string title;                 // --title: the diagram's (default: the case id)
};
int describe_trace_command(DescribeArgs& args);
int info_command();

}  // namespace harness::cli
