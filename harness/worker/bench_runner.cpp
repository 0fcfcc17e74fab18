#include "worker/bench_runner.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "impl/program.hpp"
#include "worker/script_session.hpp"

namespace harness::worker {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// Commands rank 0 sends before each batch, on tags the scripts do not use, no larger than
// 32767: the MPI_TAG_UB every MPI library guarantees (MPICH's is not much larger).
constexpr int kCmdTag = 32767;
constexpr int kCountTag = 32766;
enum Cmd : std::uint64_t { cmd_batch = 1, cmd_done = 2 };
// A rank's message count where its implementation cannot observe packets.
constexpr std::uint64_t kNotMeasured = std::numeric_limits<std::uint64_t>::max();

// RMA packets sent since `before`, or kNotMeasured.
std::uint64_t messages_since(const impl::Implementation& im,
                             const std::optional<rma::Counters>& before) {
  const auto now = im.counters();
  if (!before || !now) return kNotMeasured;
  return (*now - *before).rma_messages();
}

struct Command {
  std::uint64_t cmd = 0;
  std::uint64_t iterations = 0;
  std::uint64_t batch = 0;
  std::uint64_t compute = 0;
};

std::string size_text(std::uint64_t n) {
  return std::to_string(n);
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = p * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

// What one benchmark configuration is, for names and the report's extra fields.
struct Config {
  std::string pattern;
  std::string op = "script";
  std::string sync = "script";
  std::uint64_t size = 0;
  bool has_size = false;
  std::string metric = "latency";
  std::string flavor;
  std::string target = "wait";
  std::uint64_t bytes_per_iteration = 0;  // bandwidth: bytes moved per iteration
};

class Bench {
 public:
  explicit Bench(ScriptSession& s) : s_(s), impl_(s.impl()), spec_(s.spec()) {}

  json run() {
    lua::LuaFailure f;
    if (!s_.load(f)) return s_.ended(f);
    const auto declared = s_.declared_options();
    std::vector<std::string> sizes{""}, syncs{""};
    if (declared.count("size") && spec_.bench.contains("sizes") && !spec_.bench["sizes"].empty()) {
      sizes.clear();
      for (const auto& v : spec_.bench["sizes"])
        sizes.push_back(std::to_string(v.get<std::uint64_t>()));
    }
    if (declared.count("sync") && spec_.bench.contains("syncs") && !spec_.bench["syncs"].empty()) {
      syncs.clear();
      for (const auto& v : spec_.bench["syncs"]) syncs.push_back(v.get<std::string>());
    }
    std::vector<std::string> targets{"wait"};
    if (spec_.bench.contains("targets"))
      targets = spec_.bench["targets"].get<std::vector<std::string>>();

    json entries = json::array();
    for (const auto& sync : syncs) {
      for (const auto& size : sizes) {
        auto opts = spec_.options;
        if (!size.empty()) opts["size"] = size;
        if (!sync.empty()) opts["sync"] = sync;
        s_.set_options(opts);
        s_.new_ctx();
        if (!s_.call_hook("setup", f)) return s_.ended(f);
        if (!s_.barrier(f)) return s_.ended(f);
        impl::Program program;
        s_.phase("run (recording)");
        s_.ctx().recorder = &program;
        const bool ok = s_.call_hook("run", f);
        s_.ctx().recorder = nullptr;
        if (!ok) return s_.ended(f);
        if (!s_.barrier(f)) return s_.ended(f);
        json expected;
        if (impl_.rank() == 0 && !s_.declared_messages(expected, f)) return s_.ended(f);

        Config cfg = describe(opts, declared);
        for (const auto& target : targets) {
          cfg.target = target;
          s_.phase("run (benchmark)");
          rma::Status st = impl_.rank() == 0 ? lead(program, cfg, expected, entries)
                                           : follow(program, target == "compute");
          if (!st) {
            f.where = "benchmark " + cfg.pattern;
            f.message = st.to_string();
            return s_.ended(f);
          }
        }
        if (!s_.call_hook("teardown", f)) return s_.ended(f);
        if (!s_.barrier(f)) return s_.ended(f);
      }
    }
    json result = {{"t", "result"}, {"rank", impl_.rank()}, {"early", false}};
    s_.add_context(result);
    result["status"] = s_.ctx().failures.empty() ? "pass" : "fail";
    if (impl_.rank() == 0) result["benchmarks"] = entries;
    return result;
  }

 private:
  Config describe(const std::map<std::string, std::string>& opts,
                  const std::set<std::string>& declared) {
    Config c;
    c.pattern = spec_.stem;
    auto opt = [&](const char* k) -> std::string {
      auto it = opts.find(k);
      return it == opts.end() ? s_.option_value(k) : it->second;
    };
    if (declared.count("op")) c.op = opt("op");
    if (declared.count("sync")) c.sync = opt("sync");
    if (declared.count("size")) {
      c.has_size = true;
      c.size = std::strtoull(opt("size").c_str(), nullptr, 10);
    }
    if (declared.count("flavor")) c.flavor = opt("flavor");
    if (declared.count("window")) {
      c.metric = "bandwidth";
      c.bytes_per_iteration = c.size * std::strtoull(opt("window").c_str(), nullptr, 10);
    }
    return c;
  }

  std::string path_text() const {
    std::string p;
    for (const auto& x : s_.ctx().paths) p += (p.empty() ? "" : ",") + x;
    return p.empty() ? spec_.path : p;
  }

  std::string name(const Config& c) const {
    std::string n = c.pattern + "/" + c.sync + "/" + (c.has_size ? size_text(c.size) : "0") + "/" +
                    spec_.backend + ":" + path_text();
    if (c.target == "compute") n += "/target:compute";
    return n;
  }

  rma::Status send_all(const Command& c) {
    for (int r = 1; r < impl_.size(); ++r) RMA_TRY(impl_.send(r, &c, sizeof c, kCmdTag));
    return rma::Status::ok();
  }

  // Rank 0: Google Benchmark drives the batches.
  rma::Status lead(const impl::Program& program, const Config& cfg, const json& expected,
                   json& entries) {
    rma::Status status;
    std::uint64_t batch = 0;
    bool messages_unmeasured = false;
    auto body = [&](benchmark::State& state) {
      const auto n = static_cast<std::uint64_t>(state.max_iterations);
      ++batch;
      Command c{cmd_batch, n, batch, cfg.target == "compute" ? 1u : 0u};
      if (status) status = send_all(c);
      // Snapshots between two barriers, as for conformance cases: no rank's first op of the
      // batch may reach a rank that has not taken its snapshot.
      if (status) status = impl_.barrier();
      const std::optional<rma::Counters> before = impl_.counters();
      if (status) status = impl_.barrier();
      double total_s = 0;
      for (auto _ : state) {
        const auto t0 = Clock::now();
        rma::Status st = status ? program.replay(impl_) : status;
        const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
        if (!st) {
          if (status) status = st;
          state.SkipWithError(st.to_string().c_str());
          break;
        }
        total_s += dt;
        state.SetIterationTime(dt);
      }
      // A computing target stops when the parent relays this; a waiting one is in the barrier.
      if (c.compute) s_.ctrl().send({{"t", "batch_done"}, {"batch", batch}});
      if (status) status = impl_.barrier();
      std::uint64_t msgs = messages_since(impl_, before);
      for (int r = 1; r < impl_.size() && status; ++r) {
        std::uint64_t theirs = 0;
        status = impl_.recv(r, &theirs, sizeof theirs, kCountTag);
        msgs = msgs == kNotMeasured || theirs == kNotMeasured ? kNotMeasured : msgs + theirs;
      }
      // Not measured is NaN here, null in the report (json_without_nan): never a zero.
      state.counters["messages_per_iteration"] =
          msgs == kNotMeasured
              ? std::numeric_limits<double>::quiet_NaN()
              : static_cast<double>(msgs) / static_cast<double>(std::max<std::uint64_t>(n, 1));
      if (msgs == kNotMeasured) messages_unmeasured = true;
      if (cfg.metric == "bandwidth" && total_s > 0)
        state.counters["bytes_per_second"] =
            static_cast<double>(cfg.bytes_per_iteration * n) / total_s;
    };

    benchmark::ClearRegisteredBenchmarks();
    auto* b = benchmark::RegisterBenchmark(name(cfg).c_str(), body);
    b->UseManualTime()->Unit(benchmark::kMicrosecond);
    const double min_time = spec_.bench.value("min_time_s", 0.05);
    b->MinTime(min_time);
    const int reps = spec_.bench.value("repetitions", 1);
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
    std::ostringstream out, err;
    benchmark::JSONReporter reporter;
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&err);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::ClearRegisteredBenchmarks();
    rma::Status done = send_all(Command{cmd_done, 0, 0, 0});
    if (!status) return status;
    if (!done) return done;

    json j = json::parse(json_without_nan(out.str()), nullptr, false);
    if (j.is_discarded() || !j.contains("benchmarks"))
      return {rma::ErrorClass::intern,
              "benchmark: unreadable Google Benchmark output: " + err.str()};
    for (auto& e : j["benchmarks"]) {
      e["pattern"] = cfg.pattern;
      e["op"] = cfg.op;
      e["sync"] = cfg.sync;
      e["size"] = cfg.size;
      e["metric"] = cfg.metric;
      e["target"] = cfg.target;
      e["backend"] = spec_.backend;
      e["path"] = path_text();
      e["provider"] = spec_.provider;
      e["flavor"] = cfg.flavor;
      e["ranks"] = impl_.size();
      if (messages_unmeasured) e["messages_reason"] = "not observable in " + impl_.name();
      if (expected.is_object() && expected.contains("total"))
        e["messages_expected"] = expected["total"];
      entries.push_back(e);
    }
    return rma::Status::ok();
  }

  // Other ranks: replay in lockstep with rank 0's batches.
  rma::Status follow(const impl::Program& program, bool compute) {
    for (;;) {
      Command c;
      RMA_TRY(impl_.recv(0, &c, sizeof c, kCmdTag));
      if (c.cmd == cmd_done) return rma::Status::ok();
      RMA_TRY(impl_.barrier());
      const std::optional<rma::Counters> before = impl_.counters();
      RMA_TRY(impl_.barrier());
      if (compute && program.empty()) {
        // Truly passive: no library call until the origin's batch is over.
        volatile std::uint64_t work = 0;
        while (compute_stop_batch().load(std::memory_order_acquire) < c.batch) work = work + 1;
      } else {
        for (std::uint64_t i = 0; i < c.iterations; ++i) RMA_TRY(program.replay(impl_));
      }
      RMA_TRY(impl_.barrier());
      const std::uint64_t mine = messages_since(impl_, before);
      RMA_TRY(impl_.send(0, &mine, sizeof mine, kCountTag));
    }
  }

  ScriptSession& s_;
  impl::Implementation& impl_;
  const suite::CaseSpec& spec_;
};

}  // namespace

// Google Benchmark writes a statistic it cannot compute (the coefficient of variation of a
// counter that is always 0) as a bare nan or inf, which is not JSON: such values become null.
std::string json_without_nan(const std::string& text) {
  static const std::regex bad(R"((:\s*)-?(nan|inf)\b)", std::regex::icase);
  return std::regex_replace(text, bad, "$1null");
}

std::atomic<std::uint64_t>& compute_stop_batch() {
  static std::atomic<std::uint64_t> batch{0};
  return batch;
}

json run_bench_script(const suite::CaseSpec& spec, impl::Implementation& impl,
                      launcher::ControlChannel& ctrl, StateBoard& board) {
  ScriptSession s(spec, impl, ctrl, board);
  Bench b(s);
  return b.run();
}

}  // namespace harness::worker
