#include "cli/pipeline.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>
#include <optional>
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

// The running case is stopped and reported; the loop then ends.
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
  const bool several = inputs.size() > 1;
  for (const auto& input : inputs) {
    suite::Expansion one = suite::expand(input, args.overrides, !several);
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
  if (several) suite::check_options_declared(args.overrides, ex, "the run's inputs");
  if (ex.cases.empty() && ex.excluded.empty())
    throw suite::UsageError(args.input + ": no case to run" +
                            (args.overrides.filter.empty() ? "" : " matches --filter"));
  return ex;
}

namespace {

// One run of the pipeline, in its steps: the report's context, the durable records, the
// console, the excluded cases, the case loop and the end of the run.
class PipelineRun {
 public:
  PipelineRun(const RunArgs& args, const RunPlan& plan, CaseExecutor& executor)
      : args_(args),
        plan_(plan),
        executor_(executor),
        tty_(::isatty(STDOUT_FILENO)),
        first_case_(plan.expansion.excluded.size()),
        console_(std::cout, tty_) {}
  // The callback refers to this run: the executor may outlive it.
  ~PipelineRun() { executor_.on_figures({}); }
  PipelineRun(const PipelineRun&) = delete;
  PipelineRun& operator=(const PipelineRun&) = delete;

  int run();

 private:
  void fill_context();
  bool open_records();
  template <class Write>
  void record(const char* what, Write&& write);
  bool write_reports();
  void start_console();
  void show(const reports::CaseResult& r, const std::string& counter);
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  void finish() {
    report_.summary.duration_s = elapsed();
    report_.finish();
  }
  void add_excluded();
  bool run_case(std::size_t k, int& exit_code);
  int end_run(int exit_code);
  void print_bench_table() const;

  const RunArgs& args_;
  const RunPlan& plan_;
  CaseExecutor& executor_;
  const bool tty_;
  reports::Report report_;
  std::optional<reports::RunRecorder> recorder_;
  const std::size_t first_case_;
  reports::ConsoleWriter console_;
  std::optional<ProgressLine> progress_;
  std::chrono::steady_clock::time_point t0_;
  std::size_t in_flight_ = 0;  // the record index of the case running
};

void PipelineRun::fill_context() {
  report_.context.rmabench_version = rmabench_version();
  report_.context.git_revision = git_revision();
  report_.context.host = host_name();
  report_.context.command = plan_.command;
  report_.context.started_at = utc_now();
  report_.context.topology = plan_.topology;
  report_.context.options = plan_.options;
  for (const auto& s : plan_.expansion.suites)
    report_.context.suites.push_back({{"name", s.name}, {"path", s.path}, {"hash", s.hash}});
}

// Durable results: a record per case on disk before the next case starts, so a parent
// killed with SIGKILL loses nothing that finished (`rmabench report DIR` rebuilds). False
// when the run must not start.
bool PipelineRun::open_records() {
  if (args_.report_dir.empty()) return true;
  recorder_.emplace(args_.report_dir);
  std::vector<reports::CaseResult> expected;
  for (const auto& [c, reason] : plan_.expansion.excluded)
    expected.push_back(excluded_result(c, reason));
  for (const auto& c : plan_.expansion.cases) {
    expected.push_back(launcher::base_result(c));
    expected.back().name = c.stem;
  }
  // A directory that cannot hold the records cannot hold the report either: refused
  // before the first case, not found out after the last one.
  try {
    recorder_->begin(report_.context, expected);
  } catch (const std::exception& e) {
    std::cerr << "rmabench: --report-dir: " << e.what() << "; no case was run\n";
    return false;
  }
  return true;
}

template <class Write>
void PipelineRun::record(const char* what, Write&& write) {
  if (!recorder_) return;
  try {
    write(*recorder_);
  } catch (const std::exception& e) {
    std::cerr << "rmabench: cannot record " << what << ": " << e.what() << "\n";
    recorder_.reset();  // the report files are still written at the end, from memory
  }
}

bool PipelineRun::write_reports() {
  if (args_.report_dir.empty()) return true;
  try {
    reports::write_report_dir(report_, args_.report_dir, args_.formats);
    return true;
  } catch (const std::exception& e) {
    std::cerr << "rmabench: cannot write reports to " << args_.report_dir << ": " << e.what()
              << "\n";
    return false;
  }
}

void PipelineRun::start_console() {
  const auto& cases = plan_.expansion.cases;
  // Durations and counts in one column, unless one id is very long.
  std::size_t id_width = reports::ConsoleWriter::default_id_width;
  for (const auto& c : cases) id_width = std::max(id_width, std::min<std::size_t>(c.id.size(), 96));
  console_.set_id_width(id_width);
  // Rank logs (-v) share the terminal: a status line would be torn by them.
  progress_.emplace(std::cout, cases.size(), tty_ && !args_.verbose);
}

void PipelineRun::show(const reports::CaseResult& r, const std::string& counter) {
  progress_->print([&] {
    console_.case_line(r, counter);
    if (r.failed() || r.impl_defined()) console_.details(r);
  });
}

void PipelineRun::add_excluded() {
  for (const auto& [c, reason] : plan_.expansion.excluded) {
    report_.cases.push_back(excluded_result(c, reason));
    record("a case", [&](reports::RunRecorder& r) {
      r.finished(report_.cases.size() - 1, report_.cases.back(), nlohmann::json::array());
    });
    show(report_.cases.back(), "");
  }
}

// Case k of the run; false when the loop ends here.
bool PipelineRun::run_case(std::size_t k, int& exit_code) {
  const suite::CaseSpec& c = plan_.expansion.cases[k];
  if (launcher::stop_requested()) {
    exit_code = kExitInterrupted;
    return false;
  }
  progress_->started(k + 1, c.id);
  in_flight_ = first_case_ + k;
  record("a case's start", [&](reports::RunRecorder& r) { r.started(first_case_ + k); });
  Executed done;
  try {
    done = executor_.execute(c);
  } catch (const launcher::LaunchError& e) {
    progress_->print(
        [&] { std::cerr << "rmabench: cannot run " << c.id << ": " << e.what() << "\n"; });
    record("a case", [&](reports::RunRecorder& r) { r.not_run(first_case_ + k); });
    exit_code = kExitRunError;
    return false;
  }
  // One name per pattern: the report's `name` is the stem the id is made of.
  done.outcome.result.name = c.stem;
  launcher::apply_impl_defined(c, done.outcome.result);
  report_.cases.push_back(std::move(done.outcome.result));
  record("a case", [&](reports::RunRecorder& r) {
    r.set_elapsed(elapsed());
    r.finished(first_case_ + k, report_.cases.back(), done.outcome.benchmarks);
  });
  for (auto& b : done.outcome.benchmarks) report_.benchmarks.push_back(std::move(b));
  show(report_.cases.back(), progress_->counter());
  if (executor_.writes_after_each_case()) {
    finish();
    write_reports();
  }
  if (launcher::stop_requested()) exit_code = kExitInterrupted;
  return true;
}

// After the loop: the report files built from the records, the console's summary, the
// exit code.
int PipelineRun::end_run(int exit_code) {
  const auto& cases = plan_.expansion.cases;
  progress_->done();
  report_.finish();
  report_.complete =
      report_.cases.size() == first_case_ + cases.size() && report_.summary.interrupted == 0;
  // The report files are built from the records: what `rmabench report DIR` would build.
  if (recorder_) {
    try {
      report_ = reports::read_run_records(args_.report_dir);
    } catch (const std::exception& e) {
      std::cerr << "rmabench: " << e.what() << "; the report is written from memory\n";
    }
  }
  report_.summary.duration_s = elapsed();
  // Stopped by a signal, the run is incomplete even when the case in flight ended first (a
  // crash the stop came after is that case's verdict): exit 4 always says "complete": false.
  if (exit_code == kExitInterrupted) report_.complete = false;
  if (!report_.complete && exit_code != kExitOk) {
    const std::size_t ran = report_.cases.size() - first_case_;
    std::cerr << "rmabench: the run did not finish: " << cases.size() - ran
              << " case(s) did not run"
              << (report_.summary.interrupted ? ", 1 was interrupted" : "")
              << (args_.report_dir.empty() ? "" : "; the report says \"complete\": false") << "\n";
  }
  if (!write_reports()) exit_code = kExitRunError;
  if (plan_.bench_table) print_bench_table();
  console_.summary(report_);
  if (exit_code != kExitOk) return exit_code;
  return report_.summary.failed > 0 ? kExitFailed : kExitOk;
}

void PipelineRun::print_bench_table() const {
  std::cout << "\n";
  reports::write_bench_table(report_.benchmarks, std::cout);
  // A case that ended early ended its sweep there: a missing row is not a size the script
  // skipped.
  for (const auto& c : report_.cases)
    if (c.status == reports::Verdict::interrupted || c.status == reports::Verdict::error ||
        c.status == reports::Verdict::crash || c.status == reports::Verdict::timeout ||
        c.status == reports::Verdict::deadlock)
      std::cout << "# " << c.id << " ended " << reports::to_string(c.status)
                << ": the rows it had finished are above, the rest of its sweep did not run\n";
}

int PipelineRun::run() {
  install_stop_handlers();
  fill_context();
  if (!open_records()) return kExitRunError;
  start_console();
  t0_ = std::chrono::steady_clock::now();
  add_excluded();
  executor_.on_figures([this](const nlohmann::json& entries) {
    record("a benchmark's rows", [&](reports::RunRecorder& r) { r.figures(in_flight_, entries); });
  });
  int exit_code = kExitOk;
  for (std::size_t k = 0; k < plan_.expansion.cases.size(); ++k)
    if (!run_case(k, exit_code)) break;
  return end_run(exit_code);
}

}  // namespace

int run_pipeline(const RunArgs& args, const RunPlan& plan, CaseExecutor& executor) {
  PipelineRun run(args, plan, executor);
  return run.run();
}

}  // namespace harness::cli
