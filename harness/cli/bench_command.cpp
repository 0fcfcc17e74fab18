// `rmabench bench`: benchmark a script or a suite — every case is run in bench mode (the
// run hook recorded once, then replayed under Google Benchmark on the origin rank), the
// results printed as OSU-style tables and written, as Google Benchmark's own JSON entries, in
// the report's `benchmarks`.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "bench/sizes.hpp"
#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "launcher/launcher.hpp"
#include "launcher/topology.hpp"
#include "reports/bench_table_writer.hpp"
#include "reports/console_writer.hpp"
#include "reports/report_dir.hpp"
#include "version.hpp"

namespace harness::cli {
namespace {

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

}  // namespace

int bench_command(BenchArgs& args) {
  for (const auto& kv : args.run.options) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw suite::UsageError("-o " + kv + ": expected name=value");
    args.run.overrides.options[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  nlohmann::json bench = nlohmann::json::object();
  if (!args.sizes.empty()) {
    std::string err;
    auto sizes = bench::parse_sizes(args.sizes, err);
    if (!sizes) throw suite::UsageError(err);
    bench["sizes"] = *sizes;
  }
  if (!args.sync.empty()) {
    auto syncs = split(args.sync);
    for (const auto& s : syncs)
      if (s != "lock" && s != "flush" && s != "flush_local" && s != "lock_all" && s != "pscw" &&
          s != "fence")
        throw suite::UsageError("--sync " + s + ": expected lock, flush, flush_local, lock_all, "
                                "pscw or fence");
    bench["syncs"] = syncs;
  }
  bench["repetitions"] = args.repetitions;
  bench["min_time_s"] = args.min_time_s;
  bench["targets"] = args.target == "both" ? std::vector<std::string>{"wait", "compute"}
                                           : std::vector<std::string>{args.target};
  if (!args.run.overrides.timeout_s) args.run.overrides.timeout_s = 600;

  suite::Expansion ex = suite::expand(args.run.target, args.run.overrides);
  if (ex.cases.empty()) throw suite::UsageError(args.run.target + ": no case to benchmark");
  const auto mpi = launcher::mpi_for_run(args.run.impl, args.run.mpi_args, args.run.mpi_env);
  if (mpi) launcher::retarget(ex, *mpi, args.run.overrides.progress.has_value());
  for (auto& c : ex.cases) {
    c.mode = "bench";
    c.bench = bench;
  }

  launcher::Topology topology;
  launcher::LaunchOptions lo;
  lo.self_exe = std::filesystem::read_symlink("/proc/self/exe").string();
  lo.topology = &topology;
  lo.verbose = args.run.verbose;
  lo.rank_exec = args.run.rank_exec;
  if (mpi) lo.mpi = &*mpi;
  ::signal(SIGPIPE, SIG_IGN);
  launcher::sweep_stale_segments();

  reports::Report report;
  report.context.rmabench_version = rmabench_version();
  report.context.git_revision = git_revision();
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  report.context.host = host;
  report.context.command = args.run.command_line;
  report.context.started_at = utc_now();
  report.context.topology = topology.summary();
  report.context.options = {{"target", args.run.target}, {"mode", "bench"}, {"bench", bench},
                            {"bind", args.run.overrides.bind}};
  if (mpi) report.context.options["impl"] = launcher::mpi_context(*mpi);

  reports::ConsoleWriter console(std::cout, ::isatty(STDOUT_FILENO));
  const auto t0 = std::chrono::steady_clock::now();
  int exit_code = kExitOk;
  for (const auto& c : ex.cases) {
    if (c.ranks > topology.cores())
      std::cerr << "rmabench: warning: " << c.id << ": " << c.ranks << " ranks on "
                << topology.cores()
                << " cores share cores; latencies include the scheduler's time slicing\n";
    launcher::CaseOutcome out;
    try {
      out = launcher::run_case(c, lo);
    } catch (const launcher::LaunchError& e) {
      std::cerr << "rmabench: cannot run " << c.id << ": " << e.what() << "\n";
      exit_code = kExitRunError;
      break;
    }
    report.cases.push_back(out.result);
    for (const auto& b : out.benchmarks) report.benchmarks.push_back(b);
    console.case_line(report.cases.back());
    if (!report.cases.back().passed() && !report.cases.back().skipped())
      console.details(report.cases.back());
    if (launcher::stop_requested()) {
      exit_code = kExitRunError;
      break;
    }
  }
  report.summary.duration_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report.finish();
  std::cout << "\n";
  reports::write_bench_table(report.benchmarks, std::cout);
  if (!args.run.report_dir.empty()) {
    try {
      reports::write_report_dir(report, args.run.report_dir, args.run.formats);
    } catch (const std::exception& e) {
      std::cerr << "rmabench: cannot write reports to " << args.run.report_dir << ": " << e.what()
                << "\n";
      exit_code = kExitRunError;
    }
  }
  console.summary(report);
  if (exit_code != kExitOk) return exit_code;
  return report.summary.failed > 0 ? kExitFailed : kExitOk;
}

}  // namespace harness::cli
