#include "cli/app.hpp"

#include <CLI/CLI.hpp>

#include <cmath>
#include <iostream>
#include <string_view>

#include "cli/app_docs.hpp"
#include "cli/cli_list.hpp"
#include "cli/commands.hpp"
#include "cli/sizes.hpp"
#include "suite/resolve.hpp"
#include "version.hpp"

namespace harness::cli {
namespace {

// Checked before the Range of every floating-point option: CLI11's Range lets NaN through
// (every comparison with it is false), and `--timeout nan` reached the ranks and crashed them.
const CLI::Validator kFinite(
    [](std::string& input) -> std::string {
      long double v = 0;
      if (CLI::detail::lexical_cast(input, v) && !std::isfinite(v))
        return "expected a finite number, got " + input;
      return {};
    },
    "");

// On every option that names a file, a directory or a thing to run: an empty value was read
// as "not given" (`--report-dir ""` ran and wrote no report, with exit 0).
const CLI::Validator kNotEmpty(
    [](std::string& input) -> std::string {
      return input.empty() ? "expected a value, got an empty string" : std::string();
    },
    "");

// --format: what a run writes without it, and each entry a format, or +format to add one to
// these (cli_list.hpp, report_formats).
const std::vector<std::string> kDefaultFormats = {"json", "junit", "md"};
constexpr const char* kFormatHelp =
    "Report files to write: json, junit, md, html, console. A list replaces the default "
    "(json,junit,md); +NAME entries add to it (--format +html)";
const CLI::Validator kFormatName(
    [](std::string& input) -> std::string {
      const std::string name = !input.empty() && input[0] == '+' ? input.substr(1) : input;
      for (const char* f : {"console", "json", "junit", "md", "html"})
        if (name == f) return "";
      return "unknown format '" + input +
             "' (json, junit, md, html, console; +NAME adds to "
             "the default)";
    },
    "");

void add_matrix_options(CLI::App* cmd, suite::Overrides& o, std::vector<std::string>& options) {
  cmd->add_option("-n,--ranks", o.ranks,
                  "Number of rank processes (1.." + std::to_string(suite::kMaxRanks) + ")")
      ->check(CLI::Range(1, suite::kMaxRanks));
  cmd->add_option("--backend", o.backend, "Transport backend")
      ->check(CLI::IsMember(suite::backend_names()));
  cmd->add_option("--path", o.path, "Window path: am (packets), direct, auto")
      ->check(CLI::IsMember(suite::path_names()));
  cmd->add_option("--progress", o.progress, "Progress mode: async, calls, sync_only")
      ->transform([](std::string v) { return suite::canonical_progress(v); }, "", "")
      ->check(CLI::IsMember(suite::progress_modes()));
  cmd->add_option("--protocol", o.protocol,
                  "am packet protocol: fewest (default, fewest messages) or ch3 (MPICH's "
                  "CH3 RMA design)")
      ->check(CLI::IsMember(suite::protocol_names()));
  cmd->add_option("--provider", o.provider, "libfabric provider (fabric backend)")
      ->check(kNotEmpty);
  cmd->add_option("-o,--option", options,
                  "Script option name=value (repeatable, one value per name)");
  cmd->add_option("--filter", o.filter, "Only cases whose id contains this text")->check(kNotEmpty);
}

// The implementation under test; on an MPI, its launcher's arguments and the ranks' environment.
void add_impl_options(CLI::App* cmd, RunArgs& a) {
  cmd->add_option("--impl", a.impl,
                  "Implementation under test: ref (default), mpich, openmpi, openmpi:osc=NAME, "
                  "or an MPI of your own (rmabench info lists them); bench takes a list "
                  "(ref,mpich,openmpi) and puts them side by side")
      ->check(kNotEmpty);
  cmd->add_option("--mpi-arg", a.mpi_args,
                  "Words for the MPI's launcher, e.g. '--mca btl self,vader' (repeatable; "
                  "with an --impl list, 'openmpi:WORDS' for one MPI only)");
  cmd->add_option("--mpi-env", a.mpi_env,
                  "NAME=VALUE in the MPI ranks' environment, e.g. MPIR_CVAR_ASYNC_PROGRESS=1 "
                  "(repeatable; with an --impl list, 'mpich:NAME=VALUE' for one MPI only)");
  auto& s = a.mpi_start;
  cmd->add_option("--mpi-start", s.start,
                  "How an MPI's ranks start: launcher (its mpiexec/mpirun), srun (one job step per "
                  "case), auto (srun inside a Slurm allocation, else the launcher)")
      ->check(CLI::IsMember({"auto", "launcher", "srun"}));
  cmd->add_option("--mpi-hosts", s.hosts,
                  "Hosts for the MPI's ranks, HOST[,HOST...], handed to its launcher; the ranks "
                  "reach rmabench over TCP")
      ->delimiter(',')
      ->check(kNotEmpty);
  cmd->add_option("--mpi-hostfile", s.hostfile, "A file naming the hosts, one per line")
      ->check(CLI::ExistingFile);
  cmd->add_option("--mpi-map", s.map,
                  "Ranks on the hosts: spread (one per host in turn, default) or block (hosts "
                  "filled in turn)")
      ->check(CLI::IsMember({"spread", "block"}));
  cmd->add_option("--mpi-rsh", s.rsh,
                  "The launcher's remote-start agent instead of ssh (hydra -launcher-exec, "
                  "Open MPI plm_rsh_agent)")
      ->check(kNotEmpty);
}

// What `run` and `bench` share: the input, the matrix, the launch and the report files.
void add_run_options(CLI::App* cmd, RunArgs& a) {
  cmd->add_option("input", a.inputs,
                  "Case scripts and suite manifests (.lua files, or names: quick, "
                  "passive/lock_put_unlock), one run and one report, in order")
      ->required();
  add_matrix_options(cmd, a.overrides, a.options);
  cmd->add_option("--timeout", a.overrides.timeout_s,
                  "Deadline per case, in seconds (default: the suite's, else 60; bench: 600)")
      ->check(kFinite)
      ->check(CLI::Range(suite::kMinTimeoutS, suite::kMaxTimeoutS));
  cmd->add_option("--bind", a.overrides.bind,
                  "Bind ranks to cores: auto (when they fit), core, none")
      ->check(CLI::IsMember({"auto", "core", "none"}));
  cmd->add_option("--eager-limit", a.overrides.eager_limit,
                  "Largest transfer sent eagerly, bytes (larger: rendezvous)")
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--report-dir", a.report_dir, "Write report.json, junit.xml, report.md here")
      ->check(kNotEmpty);
  a.formats = kDefaultFormats;
  cmd->add_option("--format", a.formats, kFormatHelp)->delimiter(',')->check(kFormatName);
  cmd->add_flag("-v,--verbose", a.verbose, "Echo the ranks' log lines as they come");
  cmd->add_flag("--trace", a.overrides.trace,
                "Record every packet and call of `run` (a benchmark: its first iteration): "
                "trace.json in the report directory, sequence diagrams in report.html and "
                "report.md");
  cmd->add_option("--rank-exec", a.rank_exec,
                  "Command prefix for each rank, {rank} replaced by its rank (e.g. "
                  "'ip netns exec host{rank}'); it must exec, not fork")
      ->check(kNotEmpty);
  add_impl_options(cmd, a);
}

// Every subcommand's arguments and its CLI11 command, filled by parsing.
struct Commands {
  RunArgs run;
  BenchArgs bench;
  RunArgs list;
  DescribeArgs describe;
  GateArgs gate;
  ReportArgs report;
  CLI::App* run_cmd = nullptr;
  CLI::App* bench_cmd = nullptr;
  CLI::App* list_cmd = nullptr;
  CLI::App* describe_cmd = nullptr;
  CLI::App* info_cmd = nullptr;
  CLI::App* gate_cmd = nullptr;
  CLI::App* report_cmd = nullptr;
};

void add_run_command(CLI::App& app, Commands& c) {
  c.run_cmd = app.add_subcommand("run", "Run a case script or a suite manifest");
  add_run_options(c.run_cmd, c.run);
  c.run_cmd
      ->add_option("--check", c.run.overrides.check,
                   "Check the scripts as well: races (conflicting accesses and false asserts)")
      ->check(CLI::IsMember({"races"}));
}

void add_bench_command(CLI::App& app, Commands& c) {
  BenchArgs& bench = c.bench;
  auto* bench_cmd = c.bench_cmd = app.add_subcommand(
      "bench", "Benchmark a case script or suite with Google Benchmark (latency, bandwidth)");
  add_run_options(bench_cmd, bench.run);
  bench_cmd->add_option("--sizes", bench.sizes,
                        "Sizes to sweep, bytes (K, M, G: 1024^n): MIN:MAX, every power of two "
                        "from MIN (itself one) up to MAX, or a list (8,64,1K), at most " +
                            std::to_string(kMaxSizes) + " sizes");
  bench_cmd->add_option("--sync", bench.sync,
                        "Sync modes: lock, flush, flush_local, lock_all, pscw, fence (a list)");
  bench_cmd->add_option("--repetitions", bench.repetitions, "Repetitions of each benchmark")
      ->check(CLI::Range(1, 1000));
  bench_cmd->add_option("--min-time", bench.min_time_s, "Minimum seconds per benchmark run")
      ->check(kFinite)
      ->check(CLI::Range(0.001, 60.0));
  bench_cmd->add_option("--target-mode", bench.target_mode,
                        "What the passive target does during the batches: wait (in a barrier), "
                        "recv (in a recv), compute (without calling the library), both (wait and "
                        "compute), or a list (wait,recv)");
  bench_cmd->add_flag("--no-floor", bench.no_floor,
                      "Skip the hardware floor (cache-line round trip, memcpy) measured after "
                      "shared-memory cases, and the round trip (cache line on shm, raw "
                      "send/recv elsewhere) measured before each two-rank figure");
  // The old spelling, kept for scripts that use it; not shown in --help.
  bench_cmd->add_option("--target", bench.target_mode)->group("");
}

void add_list_command(CLI::App& app, Commands& c) {
  c.list_cmd = app.add_subcommand(
      "list",
      "Print the case ids a script or suite expands to; without one, the suites and pattern "
      "folders rmabench finds by name");
  c.list_cmd->add_option("input", c.list.input, "Suite manifest or case script, a file or a name");
  add_matrix_options(c.list_cmd, c.list.overrides, c.list.options);
}

void add_describe_command(CLI::App& app, Commands& c) {
  DescribeArgs& describe = c.describe;
  auto* describe_cmd = c.describe_cmd = app.add_subcommand(
      "describe",
      "Show the options and hooks a script declares; with --trace, run it once and "
      "print its packet sequence");
  describe_cmd->add_option("script", describe.script, "Case script (.lua), a file or a name")
      ->required();
  describe_cmd->add_flag("--trace", describe.trace,
                         "Run the pattern once (on the script's ranks, or -n) and print its calls "
                         "and packets in time order");
  add_matrix_options(describe_cmd, describe.overrides, describe.options);
  describe_cmd
      ->add_option("--eager-limit", describe.overrides.eager_limit,
                   "Largest transfer sent eagerly, bytes (larger: rendezvous)")
      ->check(CLI::Range(1, 65536));
  describe_cmd
      ->add_option("--timeout", describe.overrides.timeout_s,
                   "Deadline of the run, seconds (a deadlock is reported at it)")
      ->check(kFinite)
      ->check(CLI::Range(suite::kMinTimeoutS, suite::kMaxTimeoutS));
  describe_cmd->add_option("--svg", describe.svg, "With --trace: write the sequence diagram here")
      ->check(kNotEmpty);
  describe_cmd->add_option("--title", describe.title, "With --svg: the diagram's title")
      ->check(kNotEmpty);
}

void add_gate_command(CLI::App& app, Commands& c) {
  GateArgs& gate = c.gate;
  auto* gate_cmd = c.gate_cmd = app.add_subcommand(
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
      ->check(kFinite)
      ->check(CLI::Range(0.0, 100.0));
  gate_cmd->add_option("--alpha", gate.alpha, "Significance level of the U test")
      ->check(kFinite)
      ->check(CLI::Range(1e-9, 0.999999));
  gate_cmd
      ->add_option("--known", gate.known,
                   "JSON file of known intermittent library failures (format in "
                   "reports/known_intermittent.hpp): a case failing as one says is listed "
                   "with its defect, not counted as a regression")
      ->check(CLI::ExistingFile);
}

void add_report_command(CLI::App& app, Commands& c) {
  ReportArgs& report = c.report;
  c.report_cmd = app.add_subcommand(
      "report", "Rebuild a run directory's report files from its case records (after a kill)");
  c.report_cmd->add_option("dir", report.dir, "The run's --report-dir")
      ->required()
      ->check(CLI::ExistingDirectory);
  report.formats = kDefaultFormats;
  c.report_cmd->add_option("--format", report.formats, kFormatHelp)
      ->delimiter(',')
      ->check(kFormatName);
}

// CLI11 says only "A subcommand is required" for a misspelt command; name it instead.
bool unknown_command(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return false;
  std::string known;
  bool found = false;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name().rfind("__", 0) == 0) continue;
    found |= sub->get_name() == argv[1];
    known += (known.empty() ? "" : ", ") + sub->get_name();
  }
  if (!found)
    std::cerr << "rmabench: error: unknown command '" << argv[1] << "' (" << known << ")\n";
  return !found;
}

// The parsed values made final: the report formats, and each input given by name as its file.
void resolve_inputs(Commands& c) {
  c.run.formats = report_formats(c.run.formats, kDefaultFormats);
  c.bench.run.formats = report_formats(c.bench.run.formats, kDefaultFormats);
  c.report.formats = report_formats(c.report.formats, kDefaultFormats);
  for (RunArgs* a : {&c.run, &c.bench.run}) {
    for (auto& in : a->inputs) in = suite::resolve_input(in);  // a name: its file
    for (const auto& in : a->inputs) a->input += (a->input.empty() ? "" : " ") + in;
  }
  if (!c.list.input.empty()) c.list.input = suite::resolve_input(c.list.input);
  if (*c.describe_cmd) c.describe.script = suite::resolve_input(c.describe.script);
}

// The parsed command, carried out.
int dispatch(Commands& c, int argc, char** argv) {
  resolve_inputs(c);
  std::string cmdline;
  for (int i = 0; i < argc; ++i) cmdline += (i ? " " : "") + std::string(argv[i]);
  if (*c.run_cmd) {
    c.run.command_line = cmdline;
    return run_command(c.run);
  }
  if (*c.list_cmd && c.list.input.empty()) {
    suite::print_catalog(std::cout);
    return kExitOk;
  }
  if (*c.list_cmd) return list_command(c.list);
  if (*c.bench_cmd) {
    c.bench.run.command_line = cmdline;
    return bench_command(c.bench);
  }
  if (*c.describe_cmd) {
    DescribeArgs& describe = c.describe;
    // A title with nothing to put it on was dropped without a word.
    if (!describe.title.empty() && describe.svg.empty())
      throw suite::UsageError("describe: --title needs --svg (and --trace)");
    if (describe.trace) return describe_trace_command(describe);
    if (!describe.svg.empty()) throw suite::UsageError("describe: --svg needs --trace");
    return describe_command(describe.script);
  }
  if (*c.info_cmd) return info_command();
  if (*c.gate_cmd) return gate_command(c.gate);
  if (*c.report_cmd) return report_command(c.report);
  return kExitUsage;
}

}  // namespace

int run_app(int argc, char** argv) {
  CLI::App app{"rmabench: conformance and benchmark suite for MPI-style one-sided communication"};
  app.name("rmabench");
  app.set_version_flag("--version",
                       std::string("rmabench ") + rmabench_version() + " (" + git_revision() + ")");
  app.require_subcommand(1);
  app.footer(kExitCodesHelp);

  Commands c;
  add_run_command(app, c);
  add_bench_command(app, c);
  add_list_command(app, c);
  add_describe_command(app, c);
  c.info_cmd = app.add_subcommand("info", "Host topology, compiled backends, fabric providers");
  add_gate_command(app, c);
  add_report_command(app, c);

  // The build writes the man page and the completion script from these definitions.
  if (argc == 2 && std::string_view(argv[1]) == "__man") {
    write_man_page(app, std::cout);
    return kExitOk;
  }
  if (argc == 2 && std::string_view(argv[1]) == "__completion") {
    write_bash_completion(app, std::cout);
    return kExitOk;
  }
  if (unknown_command(app, argc, argv)) return kExitUsage;

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "rmabench: error: " << e.what() << "\n";
    return kExitUsage;
  }

  try {
    return dispatch(c, argc, argv);
  } catch (const suite::UsageError& e) {
    std::cerr << "rmabench: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "rmabench: " << e.what() << "\n";
    return kExitRunError;
  }
}

}  // namespace harness::cli
