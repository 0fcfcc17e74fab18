// `rmabench run`: expand the target into cases, run them one after another, print a line per
// case and the summary, and write the report files — also when the run is cut short.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "launcher/launcher.hpp"
#include "rma/bootstrap.hpp"
#include "launcher/topology.hpp"
#include "reports/console_writer.hpp"
#include "reports/report_dir.hpp"
#include "version.hpp"

namespace harness::cli {
namespace {

void on_signal(int) { launcher::request_stop(); }

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  ::gethostname(buf, sizeof buf - 1);
  return buf;
}

std::string self_exe() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the rmabench executable: " + ec.message());
  return p.string();
}

nlohmann::json options_json(const RunArgs& a) {
  const auto& o = a.overrides;
  nlohmann::json j = {{"target", a.target}, {"bind", o.bind}};
  if (o.ranks) j["ranks"] = *o.ranks;
  if (o.backend) j["backend"] = *o.backend;
  if (o.path) j["path"] = *o.path;
  if (o.progress) j["progress"] = *o.progress;
  if (o.provider) j["provider"] = *o.provider;
  if (o.timeout_s) j["timeout_s"] = *o.timeout_s;
  if (o.eager_limit) j["eager_limit"] = *o.eager_limit;
  if (!o.filter.empty()) j["filter"] = o.filter;
  j["options"] = o.options;
  return j;
}

void parse_options(RunArgs& a) {
  for (const auto& kv : a.options) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw suite::UsageError("-o " + kv + ": expected name=value");
    a.overrides.options[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
}

reports::CaseResult excluded_result(const suite::CaseSpec& c, const std::string& reason) {
  reports::CaseResult r;
  r.id = c.id;
  r.script = c.script;
  r.status = reports::Status::skip;
  r.expected = c.expected;
  r.ranks = c.ranks;
  r.backend = c.backend;
  r.provider = c.provider;
  r.path = c.path;
  r.progress = c.progress;
  r.options = c.options;
  r.tags = c.tags;
  r.reason = "excluded: " + reason;
  return r;
}

}  // namespace

int run_command(RunArgs& args) {
  if (rma::bootstrap::pmix_available()) return run_under_pmix(args);
  parse_options(args);
  suite::Expansion ex = suite::expand(args.target, args.overrides);
  const auto mpi = launcher::mpi_for_run(args.impl, args.mpi_args, args.mpi_env);
  if (mpi) launcher::retarget(ex, *mpi, args.overrides.progress.has_value());
  if (ex.cases.empty() && ex.excluded.empty())
    throw suite::UsageError(args.target + ": no case to run" +
                            (args.overrides.filter.empty() ? "" : " matches --filter"));

  launcher::Topology topology;
  launcher::LaunchOptions lo;
  lo.self_exe = self_exe();
  lo.topology = &topology;
  lo.verbose = args.verbose;
  lo.rank_exec = args.rank_exec;
  if (mpi) lo.mpi = &*mpi;

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);  // a rank that died must not take the parent with it
  launcher::sweep_stale_segments();

  reports::Report report;
  report.context.rmabench_version = rmabench_version();
  report.context.git_revision = git_revision();
  report.context.host = host_name();
  report.context.command = args.command_line;
  report.context.started_at = utc_now();
  report.context.topology = topology.summary();
  report.context.options = options_json(args);
  if (mpi) report.context.options["impl"] = launcher::mpi_context(*mpi);

  const bool color = ::isatty(STDOUT_FILENO);
  reports::ConsoleWriter console(std::cout, color);
  const auto t0 = std::chrono::steady_clock::now();
  int exit_code = kExitOk;
  for (const auto& [c, reason] : ex.excluded) {
    report.cases.push_back(excluded_result(c, reason));
    console.case_line(report.cases.back());
  }
  for (const auto& c : ex.cases) {
    if (launcher::stop_requested()) {
      exit_code = kExitRunError;
      break;
    }
    try {
      report.cases.push_back(launcher::run_case(c, lo).result);
    } catch (const launcher::LaunchError& e) {
      std::cerr << "rmabench: cannot run " << c.id << ": " << e.what() << "\n";
      exit_code = kExitRunError;
      break;
    }
    console.case_line(report.cases.back());
    if (!report.cases.back().passed() && !report.cases.back().skipped())
      console.details(report.cases.back());
    if (launcher::stop_requested()) exit_code = kExitRunError;
  }
  report.summary.duration_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  report.finish();

  if (!args.report_dir.empty()) {
    try {
      reports::write_report_dir(report, args.report_dir, args.formats);
    } catch (const std::exception& e) {
      std::cerr << "rmabench: cannot write reports to " << args.report_dir << ": " << e.what()
                << "\n";
      exit_code = kExitRunError;
    }
  }
  console.summary(report);
  if (exit_code != kExitOk) return exit_code;
  return report.summary.failed > 0 ? kExitFailed : kExitOk;
}

}  // namespace harness::cli
