#include "worker/bench_loop.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <regex>
#include <sstream>

// The flag behind --benchmark_enable_random_interleaving, defined and exported by
// libbenchmark (1.7.1 here) but declared only in its own sources.
namespace benchmark {
extern bool FLAGS_benchmark_enable_random_interleaving;
}  // namespace benchmark

namespace harness::worker {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

enum Cmd : std::uint64_t { cmd_batch = 1, cmd_done = 2 };
// What a rank with no iteration of its own does during a batch (--target-mode).
enum Target : std::uint64_t { target_wait = 0, target_compute = 1, target_recv = 2 };
// A rank's message count where its implementation cannot observe packets.
constexpr std::uint64_t kNotMeasured = std::numeric_limits<std::uint64_t>::max();

struct Command {
  std::uint64_t cmd = 0;
  std::uint64_t iterations = 0;
  std::uint64_t batch = 0;
  std::uint64_t target = target_wait;
  std::uint64_t figure = 0;  // which of the lead's figures the batch replays
};

// RMA packets sent since `before`, or kNotMeasured.
std::uint64_t messages_since(const impl::Implementation& im,
                             const std::optional<rma::Counters>& before) {
  const auto now = im.counters();
  if (!before || !now) return kNotMeasured;
  return (*now - *before).rma_messages();
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = p * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

// Google Benchmark's own random interleaving of repetitions: on for a lead of several
// figures, off after it. Its flag is set directly: benchmark::Initialize would set it too, but
// also re-reads every BENCHMARK_* variable of the environment, and a bad one ends the process
// (rank 0 mid-case, its peers left waiting).
void set_random_interleaving(bool on) {
  benchmark::FLAGS_benchmark_enable_random_interleaving = on;
}

rma::Status send_all(impl::Implementation& im, const Command& c) {
  for (int r = 1; r < im.size(); ++r) RMA_TRY(im.send(r, &c, sizeof c, kBenchCommandTag));
  return rma::Status::ok();
}

// Batch numbers grow across every lead of the process: a computing target stops at the
// last batch the parent relayed (compute_stop_batch), which a later lead's batch 1 would
// already be behind, so the target of every figure after the first stopped at once.
std::uint64_t g_batch = 0;

// What the batches of one lead share: the implementation and control channel, what the
// other ranks do in a batch (Target), and the lead's outcome so far: its first error, and
// whether every rank could count its messages.
struct LeadRun {
  impl::Implementation& im;
  launcher::ControlChannel& ctrl;
  std::uint64_t mode;
  rma::Status status;
  bool messages_measured = true;

  // One batch Google Benchmark asks for, of figure `index`: the followers told, the
  // iterations timed, the messages of every rank counted.
  void batch(benchmark::State& state, const BenchLoop::Figure& figure, std::uint64_t index) {
    const auto n = static_cast<std::uint64_t>(state.max_iterations);
    ++g_batch;
    const Command c{cmd_batch, n, g_batch, mode, index};
    if (status) status = send_all(im, c);
    // Snapshots between two barriers, as for conformance cases: no rank's first op of the
    // batch may reach a rank that has not taken its snapshot.
    if (status) status = im.barrier();
    const std::optional<rma::Counters> before = im.counters();
    if (status) status = im.barrier();
    const double total_s = timed_loop(state, figure.iteration);
    release_targets(c);
    if (status) status = im.barrier();
    const std::uint64_t msgs = all_messages(before);
    // Not measured is NaN here, null in the report (json_without_nan): never a zero.
    state.counters["messages_per_iteration"] =
        msgs == kNotMeasured
            ? std::numeric_limits<double>::quiet_NaN()
            : static_cast<double>(msgs) / static_cast<double>(std::max<std::uint64_t>(n, 1));
    if (msgs == kNotMeasured) messages_measured = false;
    if (figure.bytes_per_iteration > 0 && total_s > 0)
      state.counters["bytes_per_second"] =
          figure.bytes_per_iteration * static_cast<double>(n) / total_s;
  }

  // The loop is timed as a whole, and its time given to Google Benchmark once (manual time
  // is the sum of what SetIterationTime is given, so names and figures keep their meaning):
  // a clock read around every iteration would add its own cost (a vDSO clock_gettime,
  // 20-30 ns on this KVM guest) to every figure, the floor's included. Returns the seconds.
  double timed_loop(benchmark::State& state, const BenchLoop::Iteration& iteration) {
    const auto n = state.max_iterations;
    const auto t0 = Clock::now();
    while (state.KeepRunningBatch(n)) {  // once: the iteration runs the whole batch
      rma::Status st = status ? iteration(static_cast<std::uint64_t>(n)) : status;
      if (!st) [[unlikely]] {
        if (status) status = st;
        state.SkipWithError(st.to_string().c_str());
        break;
      }
    }
    const double total_s = std::chrono::duration<double>(Clock::now() - t0).count();
    state.SetIterationTime(total_s);
    return total_s;
  }

  // A computing target stops when the parent relays this; a waiting one is in the barrier,
  // or in the recv this message ends.
  void release_targets(const Command& c) {
    if (c.target == target_compute) ctrl.send(launcher::BatchDone{c.batch});
    if (c.target == target_recv && status) {
      const std::uint64_t over = c.batch;
      for (int r = 1; r < im.size() && status; ++r)
        status = im.send(r, &over, sizeof over, kBenchReleaseTag);
    }
  }

  // This rank's messages since `before` and every follower's count, or kNotMeasured.
  std::uint64_t all_messages(const std::optional<rma::Counters>& before) {
    std::uint64_t msgs = messages_since(im, before);
    for (int r = 1; r < im.size() && status; ++r) {
      std::uint64_t theirs = 0;
      status = im.recv(r, &theirs, sizeof theirs, kBenchCountTag);
      msgs = msgs == kNotMeasured || theirs == kNotMeasured ? kNotMeasured : msgs + theirs;
    }
    return msgs;
  }
};

// Each figure as a Google Benchmark benchmark: manual time, the run's min time and, with
// repetitions, the statistics the report reads.
void register_figures(const std::vector<BenchLoop::Figure>& figures, LeadRun& run,
                      const json& settings) {
  const int reps = settings.value("repetitions", 1);
  for (std::uint64_t f = 0; f < figures.size(); ++f) {
    auto* b = benchmark::RegisterBenchmark(
        figures[f].name.c_str(),
        [&run, &figures, f](benchmark::State& s) { run.batch(s, figures[f], f); });
    b->UseManualTime()->Unit(benchmark::kMicrosecond);
    b->MinTime(settings.value("min_time_s", 0.05));
    if (reps > 1) {
      b->Repetitions(reps);
      b->ComputeStatistics("min", [](const std::vector<double>& v) {
        return *std::min_element(v.begin(), v.end());
      });
      b->ComputeStatistics("max", [](const std::vector<double>& v) {
        return *std::max_element(v.begin(), v.end());
      });
      b->ComputeStatistics("p50", [](const std::vector<double>& v) { return percentile(v, 0.50); });
      b->ComputeStatistics("p90", [](const std::vector<double>& v) { return percentile(v, 0.90); });
      b->ComputeStatistics("p99", [](const std::vector<double>& v) { return percentile(v, 0.99); });
    }
  }
}

// Google Benchmark's entries from its JSON output, in the figures' order.
rma::Result<json> read_entries(const std::string& out, const std::string& err) {
  json j = json::parse(json_without_nan(out), nullptr, false);
  if (j.is_discarded() || !j.contains("benchmarks"))
    return rma::Status{rma::ErrorClass::intern,
                       "benchmark: unreadable Google Benchmark output: " + err};
  json entries = std::move(j["benchmarks"]);
  // Google Benchmark reports a benchmark when its last repetition is done, which interleaving
  // makes random: the entries go back to the figures' order, so tables read the same each run.
  std::stable_sort(entries.begin(), entries.end(), [](const json& a, const json& b) {
    return a.value("family_index", 0) < b.value("family_index", 0);
  });
  return entries;
}

}  // namespace

rma::Result<BenchLoop::Led> BenchLoop::lead(const std::string& name, const std::string& target,
                                            const Iteration& iteration,
                                            double bytes_per_iteration) {
  return lead(std::vector<Figure>{{name, iteration, bytes_per_iteration}}, target);
}

rma::Result<BenchLoop::Led> BenchLoop::lead(const std::vector<Figure>& figures,
                                            const std::string& target) {
  const std::uint64_t mode = target == "compute" ? target_compute
                             : target == "recv"  ? target_recv
                                                 : target_wait;
  LeadRun run{impl_, ctrl_, mode, rma::Status::ok(), true};
  benchmark::ClearRegisteredBenchmarks();
  register_figures(figures, run, settings_);
  set_random_interleaving(figures.size() > 1);
  std::ostringstream out, err;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&out);
  reporter.SetErrorStream(&err);
  // Every registered figure: a BENCHMARK_FILTER in the environment must not drop one (the
  // entries are told apart by their position among those that ran).
  benchmark::RunSpecifiedBenchmarks(&reporter, ".");
  benchmark::ClearRegisteredBenchmarks();
  set_random_interleaving(false);
  rma::Status done = send_all(impl_, Command{cmd_done, 0, 0, target_wait, 0});
  if (!run.status) return run.status;
  if (!done) return done;

  Led led;
  led.messages_measured = run.messages_measured;
  auto entries = read_entries(out.str(), err.str());
  if (!entries) return entries.status();
  led.entries = std::move(entries.value());
  return led;
}

rma::Status BenchLoop::follow(const Iteration& iteration, bool compute_when_idle) {
  return follow(std::vector<Iteration>{iteration}, compute_when_idle);
}

rma::Status BenchLoop::follow(const std::vector<Iteration>& iterations, bool compute_when_idle) {
  for (;;) {
    Command c;
    RMA_TRY(impl_.recv(0, &c, sizeof c, kBenchCommandTag));
    if (c.cmd == cmd_done) return rma::Status::ok();
    if (c.figure >= iterations.size())
      return {rma::ErrorClass::intern, "benchmark: rank 0 led figure " + std::to_string(c.figure) +
                                           " of " + std::to_string(iterations.size())};
    // An empty iteration: this rank has no call of its own in that figure.
    const Iteration* iteration = iterations[c.figure] ? &iterations[c.figure] : nullptr;
    RMA_TRY(impl_.barrier());
    const std::optional<rma::Counters> before = impl_.counters();
    RMA_TRY(impl_.barrier());
    if (!iteration && compute_when_idle && c.target == target_compute) {
      // Truly passive: no library call until the origin's batch is over.
      volatile std::uint64_t work = 0;
      while (compute_stop_batch().load(std::memory_order_acquire) < c.batch) work = work + 1;
    } else if (iteration) {
      RMA_TRY((*iteration)(c.iterations));
    }
    if (c.target == target_recv) {  // every follower, so rank 0's message never waits unread
      std::uint64_t over = 0;
      RMA_TRY(impl_.recv(0, &over, sizeof over, kBenchReleaseTag));
    }
    RMA_TRY(impl_.barrier());
    const std::uint64_t mine = messages_since(impl_, before);
    RMA_TRY(impl_.send(0, &mine, sizeof mine, kBenchCountTag));
  }
}

// Google Benchmark writes a statistic it cannot compute (the coefficient of variation of a
// counter that is always 0) as a bare nan or inf, which is not JSON: such values become null.
std::string json_without_nan(const std::string& text) {
  static const std::regex bad(R"((:\s*)-?(nan|inf)\b)", std::regex::icase);
  return std::regex_replace(text, bad, "$1null");
}

void report_figures(launcher::ControlChannel& ctrl, nlohmann::json entries) {
  if (entries.empty()) return;
  ctrl.send(launcher::Figures{std::move(entries)});
}

std::atomic<std::uint64_t>& compute_stop_batch() {
  static std::atomic<std::uint64_t> batch{0};
  return batch;
}

}  // namespace harness::worker
