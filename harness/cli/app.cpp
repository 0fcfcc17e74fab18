#include "cli/app.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/commands.hpp"
#include "version.hpp"

namespace harness::cli {
namespace {

void add_matrix_options(CLI::App* cmd, suite::Overrides& o, std::vector<std::string>& options) {
  cmd->add_option("-n,--ranks", o.ranks, "Number of rank processes (1..256)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--backend", o.backend, "Transport backend")
      ->check(CLI::IsMember({"shm", "fabric"}));
  cmd->add_option("--path", o.path, "Window path: am (packets), direct, auto")
      ->check(CLI::IsMember({"am", "direct", "auto"}));
  cmd->add_option("--progress", o.progress, "Progress mode")
      ->check(CLI::IsMember({"async", "calls", "sync-only"}));
  cmd->add_option("--provider", o.provider, "libfabric provider (fabric backend)");
  cmd->add_option("-o,--option", options, "Script option name=value (repeatable)");
  cmd->add_option("--filter", o.filter, "Only cases whose id contains this text");
}

// The implementation under test; on an MPI, its launcher's arguments and the ranks' environment.
void add_impl_options(CLI::App* cmd, RunArgs& a) {
  cmd->add_option("--impl", a.impl,
                  "Implementation under test: ref (default), mpich, openmpi, openmpi:osc=NAME, "
                  "or an MPI of your own (rmabench info lists them)");
  cmd->add_option("--mpi-arg", a.mpi_args,
                  "Words for the MPI's launcher, e.g. '--mca btl self,vader' (repeatable)");
  cmd->add_option("--mpi-env", a.mpi_env,
                  "NAME=VALUE in the MPI ranks' environment, e.g. MPIR_CVAR_CH4_OFI_... (repeatable)");
}

}  // namespace

int run_app(int argc, char** argv) {
  CLI::App app{"rmabench: conformance and benchmark suite for MPI-style one-sided communication"};
  app.name("rmabench");
  app.set_version_flag("--version",
                       std::string("rmabench ") + rmabench_version() + " (" + git_revision() + ")");
  app.require_subcommand(1);

  RunArgs run;
  auto* run_cmd = app.add_subcommand("run", "Run a case script or a suite manifest");
  run_cmd->add_option("target", run.target, "Case script or suite manifest (.lua)")
      ->required()
      ->check(CLI::ExistingFile);
  add_matrix_options(run_cmd, run.overrides, run.options);
  run_cmd->add_option("--timeout", run.overrides.timeout_s, "Deadline per case, in seconds")
      ->check(CLI::Range(0.1, 86400.0));
  run_cmd
      ->add_option("--bind", run.overrides.bind,
                   "Bind ranks to cores: auto (when they fit), core, none")
      ->check(CLI::IsMember({"auto", "core", "none"}));
  run_cmd
      ->add_option("--eager-limit", run.overrides.eager_limit,
                   "Largest transfer sent eagerly, bytes (larger: rendezvous)")
      ->check(CLI::Range(1, 65536));
  run_cmd->add_option("--report-dir", run.report_dir,
                      "Write report.json, junit.xml, report.md here");
  run.formats = {"json", "junit", "md"};
  run_cmd->add_option("--format", run.formats, "Report files to write: json, junit, md, html")
      ->delimiter(',')
      ->check(CLI::IsMember({"console", "json", "junit", "md", "html"}));
  run_cmd->add_flag("-v,--verbose", run.verbose, "Echo the ranks' log lines as they come");
  add_impl_options(run_cmd, run);
  run_cmd->add_option("--rank-exec", run.rank_exec,
                      "Command prefix for each rank, {rank} replaced by its rank (e.g. "
                      "'ip netns exec host{rank}'); it must exec, not fork");

  BenchArgs bench;
  auto* bench_cmd = app.add_subcommand(
      "bench", "Benchmark a case script or suite with Google Benchmark (latency, bandwidth)");
  bench_cmd->add_option("target", bench.run.target, "Case script or suite manifest (.lua)")
      ->required()
      ->check(CLI::ExistingFile);
  add_matrix_options(bench_cmd, bench.run.overrides, bench.run.options);
  bench_cmd->add_option("--sizes", bench.sizes,
                        "Sizes to sweep: MIN:MAX (powers of two) or a list");
  bench_cmd->add_option("--sync", bench.sync,
                        "Sync modes: lock, flush, flush_local, lock_all, pscw, fence (a list)");
  bench_cmd->add_option("--repetitions", bench.repetitions, "Repetitions of each benchmark")
      ->check(CLI::Range(1, 1000));
  bench_cmd->add_option("--min-time", bench.min_time_s, "Minimum seconds per benchmark run")
      ->check(CLI::Range(0.001, 60.0));
  bench_cmd
      ->add_option("--target", bench.target,
                   "Passive target during the batches: wait (in a barrier), compute "
                   "(without calling the library), both")
      ->check(CLI::IsMember({"wait", "compute", "both"}));
  bench_cmd->add_option("--timeout", bench.run.overrides.timeout_s, "Deadline per case, seconds")
      ->check(CLI::Range(0.1, 86400.0));
  bench_cmd->add_option("--bind", bench.run.overrides.bind, "Bind ranks: auto, core, none")
      ->check(CLI::IsMember({"auto", "core", "none"}));
  bench_cmd
      ->add_option("--eager-limit", bench.run.overrides.eager_limit,
                   "Largest transfer sent eagerly, bytes")
      ->check(CLI::Range(1, 65536));
  bench_cmd->add_option("--report-dir", bench.run.report_dir, "Write the report files here");
  bench.run.formats = {"json", "junit", "md"};
  bench_cmd->add_option("--format", bench.run.formats, "Report files to write")
      ->delimiter(',')
      ->check(CLI::IsMember({"console", "json", "junit", "md", "html"}));
  bench_cmd->add_flag("-v,--verbose", bench.run.verbose, "Echo the ranks' log lines");
  add_impl_options(bench_cmd, bench.run);
  bench_cmd->add_option("--rank-exec", bench.run.rank_exec,
                        "Command prefix for each rank, {rank} replaced by its rank");

  std::string list_target;
  suite::Overrides list_o;
  std::vector<std::string> list_options;
  auto* list_cmd = app.add_subcommand("list", "Print the case ids a script or suite expands to");
  list_cmd->add_option("target", list_target, "Suite manifest or case script")
      ->required()
      ->check(CLI::ExistingFile);
  add_matrix_options(list_cmd, list_o, list_options);

  std::string describe_target;
  auto* describe_cmd =
      app.add_subcommand("describe", "Show the options and hooks a script declares");
  describe_cmd->add_option("script", describe_target, "Case script (.lua)")
      ->required()
      ->check(CLI::ExistingFile);

  auto* info_cmd = app.add_subcommand("info", "Host topology, compiled backends, fabric providers");

  GateArgs gate;
  auto* gate_cmd = app.add_subcommand(
      "gate", "Compare a report with a baseline: exit 1 on a regression, 0 when none");
  gate_cmd->add_option("report", gate.report, "report.json of the run")
      ->required()
      ->check(CLI::ExistingFile);
  gate_cmd->add_option("--baseline", gate.baseline, "report.json to compare with")
      ->required()
      ->check(CLI::ExistingFile);
  gate_cmd->add_option("--format", gate.format, "Diff as text or md (a pull-request comment)")
      ->check(CLI::IsMember({"text", "md"}));
  gate_cmd
      ->add_option("--threshold", gate.threshold,
                   "Smallest relative change of a median that counts (0.05 = 5%)")
      ->check(CLI::Range(0.0, 100.0));
  gate_cmd->add_option("--alpha", gate.alpha, "Significance level of the U test")
      ->check(CLI::Range(1e-9, 0.999999));

  // CLI11 says only "A subcommand is required" for a misspelt command; name it instead.
  if (argc >= 2 && argv[1][0] != '-') {
    std::string known;
    bool found = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      if (sub->get_name().rfind("__", 0) == 0) continue;
      found |= sub->get_name() == argv[1];
      known += (known.empty() ? "" : ", ") + sub->get_name();
    }
    if (!found) {
      std::cerr << "rmabench: error: unknown command '" << argv[1] << "' (" << known << ")\n";
      return kExitUsage;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "rmabench: error: " << e.what() << "\n";
    return kExitUsage;
  }

  try {
    std::string cmdline;
    for (int i = 0; i < argc; ++i) cmdline += (i ? " " : "") + std::string(argv[i]);
    if (*run_cmd) {
      run.command_line = cmdline;
      return run_command(run);
    }
    if (*list_cmd) {
      for (const auto& kv : list_options) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
          throw suite::UsageError("-o " + kv + ": expected name=value");
        list_o.options[kv.substr(0, eq)] = kv.substr(eq + 1);
      }
      return list_command(list_target, list_o);
    }
    if (*bench_cmd) {
      bench.run.command_line = cmdline;
      return bench_command(bench);
    }
    if (*describe_cmd) return describe_command(describe_target);
    if (*info_cmd) return info_command();
    if (*gate_cmd) return gate_command(gate);
  } catch (const suite::UsageError& e) {
    std::cerr << "rmabench: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "rmabench: " << e.what() << "\n";
    return kExitRunError;
  }
  return kExitUsage;
}

}  // namespace harness::cli
