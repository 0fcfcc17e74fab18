#include "cli/pipeline.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>
#include <set>

#include "cli/app.hpp"
#include "cli/progress_line.hpp"
#include "launcher/rank_results.hpp"
#include "reports/bench_table_writer.hpp"
#include "reports/console_writer.hpp"
#include "reports/report_dir.hpp"
#include "reports/run_record.hpp"
#include "suite/suite_hash.hpp"
#include "version.hpp"

namespace harness::cli {
namespace {

void on_stop_signal(int) {
  launcher::request_stop();
}

// The running case is stopped and reported; the loop then ends (stops_between_cases).
void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  ::signal(SIGPIPE, SIG_IGN);  // a rank that died must not take the parent with it
}

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

reports::CaseResult excluded_result(const suite::CaseSpec& c, const std::string& reason) {
  reports::CaseResult r = launcher::base_result(c);
  r.name = c.stem;
  r.status = reports::Verdict::skip;
  r.reason = "excluded: " + reason;
  return r;
}

}  // namespace

void parse_script_options(RunArgs& args) {
  for (const auto& kv : args.options) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw suite::UsageError("-o " + kv + ": expected name=value");
    // A second value would silently replace the first (one run takes one value per option).
    const auto [it, added] =
        args.overrides.options.try_emplace(kv.substr(0, eq), kv.substr(eq + 1));
    if (!added)
      throw suite::UsageError("-o " + kv + ": option '" + it->first + "' is already given (" +
                              it->first + "=" + it->second + "); give it once");
  }
}

suite::Expansion expand_input(RunArgs& args) {
  parse_script_options(args);
  const std::vector<std::string> inputs =
      args.inputs.empty() ? std::vector<std::string>{args.input} : args.inputs;
  // Each input expands as it would alone (so its case ids are the ones a run of it alone
  // gives), and the cases follow in the order the inputs were given.
  suite::Expansion ex;
  std::set<std::string> ids;
  for (const auto& input : inputs) {
    suite::Expansion one = suite::expand(input, args.overrides);
    for (auto& c : one.cases) {
      if (!ids.insert(c.id).second)
        throw suite::UsageError(input + ": case " + c.id +
                                " is already in the run (an earlier input gives it too)");
      ex.cases.push_back(std::move(c));
    }
    for (auto& e : one.excluded) ex.excluded.push_back(std::move(e));
    if (!one.suite.empty())
      ex.suites.push_back({one.suite, input, suite::suite_hash(input, one.scripts)});
    ex.scripts.merge(one.scripts);
    ex.suite = inputs.size() == 1 ? one.suite : "";
  }
  if (ex.cases.empty() && ex.excluded.empty())
    throw suite::UsageError(args.input + ": no case to run" +
                            (args.overrides.filter.empty() ? "" : " matches --filter"));
  return ex;
}

int run_pipeline(const RunArgs& args, const RunPlan& plan, CaseExecutor& executor) {
  // Where a stop cannot end the run between cases (ranks of a PMIx job must agree on the
  // next case), the launcher's signal keeps its default action and ends the rank.
  if (executor.stops_between_cases()) install_stop_handlers();
  const bool reporting = executor.reports();
  const bool tty = reporting && ::isatty(STDOUT_FILENO);

  reports::Report report;
  report.context.rmabench_version = rmabench_version();
  report.context.git_revision = git_revision();
  report.context.host = host_name();
  report.context.command = plan.command;
  report.context.started_at = utc_now();
  report.context.topology = plan.topology;
  report.context.options = plan.options;
  for (const auto& s : plan.expansion.suites)
    report.context.suites.push_back({{"name", s.name}, {"path", s.path}, {"hash", s.hash}});

  // Durable results: a record per case on disk before the next case starts, so a parent
  // killed with SIGKILL loses nothing that finished (`rmabench report DIR` rebuilds).
  std::optional<reports::RunRecorder> recorder;
  const std::size_t first_case = plan.expansion.excluded.size();
  auto record = [&](const char* what, auto&& write) {
    if (!recorder) return;
    try {
      write(*recorder);
    } catch (const std::exception& e) {
      std::cerr << "rmabench: cannot record " << what << ": " << e.what() << "\n";
      recorder.reset();  // the report files are still written at the end, from memory
    }
  };
  if (reporting && !args.report_dir.empty()) {
    recorder.emplace(args.report_dir);
    std::vector<reports::CaseResult> expected;
    for (const auto& [c, reason] : plan.expansion.excluded) expected.push_back(excluded_result(c, reason));
    for (const auto& c : plan.expansion.cases) {
      expected.push_back(launcher::base_result(c));
      expected.back().name = c.stem;
    }
    // A directory that cannot hold the records cannot hold the report either: refused
    // before the first case, not found out after the last one. Not under PMIx, where the
    // other ranks are already on their way into the first case and would wait for this one
    // until its deadline: there the run goes on and ends with the reports' failure (exit 3).
    try {
      recorder->begin(report.context, expected);
    } catch (const std::exception& e) {
      if (executor.stops_between_cases()) {
        std::cerr << "rmabench: --report-dir: " << e.what() << "; no case was run\n";
        return kExitRunError;
      }
      std::cerr << "rmabench: cannot record the run: " << e.what() << "\n";
      recorder.reset();
    }
  }

  auto write_reports = [&]() -> bool {
    if (!reporting || args.report_dir.empty()) return true;
    try {
      reports::write_report_dir(report, args.report_dir, args.formats);
      return true;
    } catch (const std::exception& e) {
      std::cerr << "rmabench: cannot write reports to " << args.report_dir << ": " << e.what()
                << "\n";
      return false;
    }
  };

  reports::ConsoleWriter console(std::cout, tty);
  const auto& cases = plan.expansion.cases;
  // Durations and counts in one column, unless one id is very long.
  std::size_t id_width = reports::ConsoleWriter::default_id_width;
  for (const auto& c : cases) id_width = std::max(id_width, std::min<std::size_t>(c.id.size(), 96));
  console.set_id_width(id_width);
  // Rank logs (-v) share the terminal: a status line would be torn by them.
  ProgressLine progress(std::cout, cases.size(), tty && !args.verbose);
  auto show = [&](const reports::CaseResult& r, const std::string& counter) {
    if (!reporting) return;
    progress.print([&] {
      console.case_line(r, counter);
      if (r.failed() || r.impl_defined()) console.details(r);
    });
  };

  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  for (const auto& [c, reason] : plan.expansion.excluded) {
    report.cases.push_back(excluded_result(c, reason));
    record("a case", [&](reports::RunRecorder& r) {
      r.finished(report.cases.size() - 1, report.cases.back(), nlohmann::json::array());
    });
    show(report.cases.back(), "");
  }
  auto finish = [&] {
    report.summary.duration_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    report.finish();
  };
  executor.on_run_end([&](const reports::CaseResult& result) {
    const std::size_t done = report.cases.size() - plan.expansion.excluded.size();
    report.cases.push_back(result);
    show(report.cases.back(), progress.counter());
    record("a case", [&](reports::RunRecorder& r) {
      r.set_elapsed(elapsed());
      r.finished(first_case + done, result, nlohmann::json::array());
    });
    const std::size_t left = cases.size() - done - 1;
    if (left > 0 && reporting)
      std::cerr << "rmabench: the job ends here; the " << left
                << " case(s) after it did not run\n";
    finish();
    report.complete = left == 0 && !result.interrupted();
    write_reports();
    progress.done();
    if (reporting) console.summary(report);
    return !result.passed() ? kExitFailed : left > 0 ? kExitRunError : kExitOk;
  });
  std::size_t in_flight = 0;  // the record index of the case running
  executor.on_figures([&](const nlohmann::json& entries) {
    record("a benchmark's rows", [&](reports::RunRecorder& r) { r.figures(in_flight, entries); });
  });
  // The callback refers to this function's locals: the executor may outlive them.
  struct Forget {
    CaseExecutor& e;
    ~Forget() { e.on_figures({}); }
  } forget{executor};
  int exit_code = kExitOk;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const suite::CaseSpec& c = cases[k];
    if (executor.stops_between_cases() && launcher::stop_requested()) {
      exit_code = kExitInterrupted;
      break;
    }
    progress.started(k + 1, c.id);
    in_flight = first_case + k;
    record("a case's start", [&](reports::RunRecorder& r) { r.started(first_case + k); });
    if (auto p = executor.pending(c); p && reporting && !args.report_dir.empty()) {
      report.cases.push_back(std::move(*p));
      finish();
      write_reports();
      report.cases.pop_back();
    }
    Executed done;
    try {
      done = executor.execute(c);
    } catch (const launcher::LaunchError& e) {
      progress.print(
          [&] { std::cerr << "rmabench: cannot run " << c.id << ": " << e.what() << "\n"; });
      record("a case", [&](reports::RunRecorder& r) { r.not_run(first_case + k); });
      exit_code = kExitRunError;
      break;
    }
    // One name per pattern: the report's `name` is the stem the id is made of.
    done.outcome.result.name = c.stem;
    launcher::apply_impl_defined(c, done.outcome.result);
    report.cases.push_back(std::move(done.outcome.result));
    record("a case", [&](reports::RunRecorder& r) {
      r.set_elapsed(elapsed());
      r.finished(first_case + k, report.cases.back(), done.outcome.benchmarks);
    });
    for (auto& b : done.outcome.benchmarks) report.benchmarks.push_back(std::move(b));
    show(report.cases.back(), progress.counter());
    if (executor.writes_after_each_case()) {
      report.summary.duration_s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      report.finish();
      write_reports();
    }
    if (launcher::stop_requested()) exit_code = kExitInterrupted;
    if (done.last) break;
  }
  progress.done();
  report.finish();
  report.complete = report.cases.size() == first_case + cases.size() &&
                    report.summary.interrupted == 0;
  if (!reporting) return kExitOk;
  // The report files are built from the records: what `rmabench report DIR` would build.
  if (recorder) {
    try {
      report = reports::read_run_records(args.report_dir);
    } catch (const std::exception& e) {
      std::cerr << "rmabench: " << e.what() << "; the report is written from memory\n";
    }
  }
  report.summary.duration_s = elapsed();
  // Stopped by a signal, the run is incomplete even when the case in flight ended first (a
  // crash the stop came after is that case's verdict): exit 4 always says "complete": false.
  if (exit_code == kExitInterrupted) report.complete = false;
  if (!report.complete && exit_code != kExitOk) {
    const std::size_t ran = report.cases.size() - first_case;
    std::cerr << "rmabench: the run did not finish: " << cases.size() - ran
              << " case(s) did not run" << (report.summary.interrupted ? ", 1 was interrupted" : "")
              << (args.report_dir.empty() ? "" : "; the report says \"complete\": false") << "\n";
  }

  if (!write_reports()) exit_code = kExitRunError;
  if (plan.bench_table) {
    std::cout << "\n";
    reports::write_bench_table(report.benchmarks, std::cout);
    // A case that ended early ended its sweep there: a missing row is not a size the script
    // skipped.
    for (const auto& c : report.cases)
      if (c.status == reports::Verdict::interrupted || c.status == reports::Verdict::error ||
          c.status == reports::Verdict::crash || c.status == reports::Verdict::timeout ||
          c.status == reports::Verdict::deadlock)
        std::cout << "# " << c.id << " ended " << reports::to_string(c.status)
                  << ": the rows it had finished are above, the rest of its sweep did not run\n";
  }
  console.summary(report);
  if (exit_code != kExitOk) return exit_code;
  return report.summary.failed > 0 ? kExitFailed : kExitOk;
}

}  // namespace harness::cli
