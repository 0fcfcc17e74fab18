#include "reports/testing/sample_report.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace reports::sample {

using nlohmann::json;

CaseResult passed_case(const std::string& id) {
  CaseResult c;
  c.id = id;
  c.script = "lua_scripts/lock_put_unlock.lua";
  c.name = "lock-put-unlock";
  c.status = Verdict::pass;
  c.ranks = 2;
  c.backend = "shm";
  c.path = "am";
  c.progress = "async";
  c.duration_s = 0.012;
  c.options = {{"size", "8"}};
  c.tags = {"lock", "passive"};
  c.messages.measured = true;
  c.messages.total = 2;
  c.messages.by_type = {{"lock_put", 1}, {"unlock_ack", 1}};
  c.messages.expected = {{"total", 2}};
  c.binding = {"core 0", "core 1"};
  return c;
}

namespace {

json blocked_rank_states() {
  return json::array({
      {{"rank", 0},
       {"call", "recv"},
       {"blocked", true},
       {"since_s", 3.2},
       {"window", -1},
       {"target", 1},
       {"waiting_for", "message from 1 tag 7"},
       {"where", "lua_scripts/x.lua:14"},
       {"windows", json::array({{{"id", 0},
                                 {"flavor", "allocate"},
                                 {"path", "am"},
                                 {"access_epoch", "pscw"},
                                 {"exposure_epoch", "none"},
                                 {"targets", json::array({{{"target", 1},
                                                           {"lock", "none"},
                                                           {"queued_ops", 1},
                                                           {"in_flight", 0},
                                                           {"awaiting_acks", 0}}})},
                                 {"lock_holders", ""},
                                 {"lock_waiters", ""}}})},
       {"counters", {{"packets_sent", 3}, {"packets_received", 0}}}},
      {{"rank", 1}, {"state", "no reply"}},
  });
}

// A time that depends on the size like a real transfer: a fixed cost plus size / bandwidth.
struct Series {
  const char* backend;
  const char* path;
  const char* provider;
  double base_us;
  double bytes_per_us;
  double spread = 0.03;         // repetitions vary by up to +-2 * spread
  const char* target = "wait";  // the runner's target modes: "wait" or "compute"
};

struct Pattern {
  const char* pattern;
  const char* op;
  const char* sync;
  const char* metric;
  int size_step;          // sizes 2^0, 2^step, ... up to 4 MiB
  int repetitions;        // 1: a single run per size, no aggregates
  int ops_per_iteration;  // bandwidth patterns keep a window of ops in flight
  std::vector<Series> series;
};

json entry(const Pattern& p, const Series& s, double size, const std::string& run_name) {
  return {{"name", run_name},
          {"run_name", run_name},
          {"threads", 1},
          {"time_unit", "us"},
          {"repetitions", p.repetitions},
          {"pattern", p.pattern},
          {"op", p.op},
          {"sync", p.sync},
          {"size", size},
          {"metric", p.metric},
          {"backend", s.backend},
          {"path", s.path},
          {"provider", s.provider},
          {"flavor", "allocate"},
          {"target", s.target},
          {"ranks", 2},
          {"messages_per_iteration", p.ops_per_iteration + 1}};
}

json aggregate(json e, const std::string& name, double time, double bps, bool bandwidth) {
  e["name"] = e["run_name"].get<std::string>() + "_" + name;
  e["run_type"] = "aggregate";
  e["aggregate_name"] = name;
  e["aggregate_unit"] = name == "cv" ? "percentage" : "time";
  e["iterations"] = e["repetitions"];
  e["real_time"] = time;
  e["cpu_time"] = time;
  if (bandwidth) e["bytes_per_second"] = bps;
  return e;
}

// Mean, median, stddev, cv, min and max, as Google Benchmark (with the runner's min and max
// statistics) writes them after the repetitions.
void add_aggregates(json& out, const json& proto, std::vector<double> t, std::vector<double> b,
                    bool bandwidth) {
  auto stats = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    double mean = 0;
    for (double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    double var = 0;
    for (double x : v) var += (x - mean) * (x - mean);
    const double sd = v.size() > 1 ? std::sqrt(var / static_cast<double>(v.size() - 1)) : 0;
    const std::size_t n = v.size();
    const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return std::vector<double>{mean, median, sd, sd / mean, v.front(), v.back()};
  };
  const auto ts = stats(t);
  const auto bs = stats(b);
  const char* names[] = {"mean", "median", "stddev", "cv", "min", "max"};
  for (std::size_t i = 0; i < 6; ++i) {
    // Google Benchmark computes each statistic of a counter on its own, as here.
    out.push_back(aggregate(proto, names[i], ts[i], bs[i], bandwidth));
  }
}

json sample_benchmarks() {
  const Series shm_am{"shm", "am", "", 1.2, 8000};
  const Series shm_direct{"shm", "direct", "", 0.35, 10000};
  // TCP on loopback is the noisy one: its band is wide enough to see on the plots.
  const Series fabric_am{"fabric", "am", "tcp", 18, 1200, 0.15};
  const Series fabric_direct{"fabric", "direct", "tcp", 22, 1100, 0.15};
  const Series shm_am_computing{"shm", "am", "", 1.5, 7000, 0.03, "compute"};
  const std::vector<Pattern> patterns{
      {"put_latency", "put", "lock", "latency", 1, 5, 1, {shm_am, shm_direct, fabric_am}},
      {"get_latency",
       "get",
       "flush",
       "latency",
       2,
       5,
       1,
       {shm_am, shm_am_computing, fabric_direct}},
      {"put_bandwidth", "put", "lock", "bandwidth", 2, 3, 64, {shm_am, shm_direct}},
      {"passive/lock_put_unlock", "script", "script", "latency", 2, 1, 1, {shm_am}},
  };
  json out = json::array();
  for (const Pattern& p : patterns) {
    const bool bandwidth = std::string(p.metric) == "bandwidth";
    for (std::size_t si = 0; si < p.series.size(); ++si) {
      const Series& s = p.series[si];
      for (int e = 0, k = 0; e <= 22; e += p.size_step, ++k) {
        const double size = std::ldexp(1.0, e);
        const std::string run_name =
            std::string(p.pattern) + "/" + p.sync + "/" +
            std::to_string(static_cast<long long>(size)) + "/" + s.backend + ":" + s.path +
            (std::string(s.target) == "compute" ? "/target:compute" : "") + "/manual_time";
        const json proto = entry(p, s, size, run_name);
        const double t0 = p.ops_per_iteration * (s.base_us + size / s.bytes_per_us);
        std::vector<double> times, rates;
        for (int rep = 0; rep < p.repetitions; ++rep) {
          // A fixed spread around the model, different per size and series.
          const int wobble = (rep * 7 + k * 3 + static_cast<int>(si) * 5) % 5 - 2;
          const double t = t0 * (1 + s.spread * wobble);
          const double bps = p.ops_per_iteration * size / (t * 1e-6);
          times.push_back(t);
          rates.push_back(bps);
          json it = proto;
          it["run_type"] = "iteration";
          it["repetition_index"] = rep;
          it["iterations"] = 1000;
          it["real_time"] = t;
          it["cpu_time"] = t * 0.97;
          if (bandwidth) it["bytes_per_second"] = bps;
          out.push_back(std::move(it));
        }
        if (p.repetitions > 1) add_aggregates(out, proto, times, rates, bandwidth);
      }
    }
  }
  return out;
}

}  // namespace

Report sample_report() {
  Report r;
  r.context.rmabench_version = "0.1.0";
  r.context.git_revision = "6b327bc";
  r.context.host = "node-1";
  r.context.command = "rmabench run suites/conformance.lua --format json,junit,md";
  r.context.started_at = "2024-05-01T12:00:00Z";
  r.context.topology = {{"packages", 1}, {"cores", 8}, {"numa", json::array({0})}};
  r.context.options = {{"backend", "shm"}, {"timeout", 10}};

  r.cases.push_back(passed_case("conformance/lock_put_unlock[shm,am,np=2]"));

  CaseResult fail = passed_case("conformance/fence_put[shm,am,np=2]");
  fail.status = Verdict::fail;
  fail.messages.total = 3;
  fail.messages.by_type = {{"lock_put", 1}, {"unlock_ack", 2}};
  fail.messages.expected = {{"total", 2}, {"lock_put", 1}, {"unlock_ack", 1}};
  fail.failures = {{1, "lua_scripts/fence_put.lua:21", hostile_text},
                   {-1, "messages", "expected total 2, got 3"}};
  fail.log = {"rank 0: started", std::string("rank 1: ") + hostile_text};
  r.cases.push_back(fail);

  CaseResult must_deadlock = passed_case("conformance/lock_self_deadlock[shm,am,np=2]");
  must_deadlock.expected = Expected::deadlock;
  must_deadlock.status = Verdict::deadlock;
  must_deadlock.messages.measured = false;
  must_deadlock.rank_states = blocked_rank_states();
  r.cases.push_back(must_deadlock);

  CaseResult timeout = passed_case("progress/pscw_no_progress[shm,am,np=2]");
  timeout.status = Verdict::timeout;
  timeout.reason = "no progress within 10 s";
  timeout.rank_states = blocked_rank_states();
  timeout.metrics = {{"latency_us", 1.5}};
  r.cases.push_back(timeout);

  CaseResult crash = passed_case("progress/rput_crash[fabric,direct,np=2]");
  crash.status = Verdict::crash;
  crash.backend = "fabric";
  crash.provider = "tcp";
  crash.path = "direct";
  crash.reason = "rank 1 killed by signal 11 (SIGSEGV)";
  r.cases.push_back(crash);

  CaseResult error = passed_case("conformance/bad_script[shm,am,np=2]");
  error.status = Verdict::error;
  error.failures = {{0, "lua_scripts/bad_script.lua:3", "attempt to call a nil value"}};
  r.cases.push_back(error);

  CaseResult skip = passed_case("fabric/atomics[fabric,direct,np=2]");
  skip.status = Verdict::skip;
  skip.messages.measured = false;
  skip.reason = "provider tcp has no native atomics";
  r.cases.push_back(skip);

  CaseResult single = passed_case("lock_put_unlock[shm,am,np=2]");  // no suite prefix
  r.cases.push_back(single);

  // First an entry from another tool (Google Benchmark's fields only), then rmabench's.
  r.benchmarks = json::array({{{"name", "put_latency/lock/8"},
                               {"iterations", 1000},
                               {"real_time", 1.25},
                               {"cpu_time", 1.2},
                               {"time_unit", "us"},
                               {"run_type", "iteration"}}});
  for (auto& e : sample_benchmarks()) r.benchmarks.push_back(std::move(e));
  r.summary.duration_s = 12.5;
  r.finish();
  return r;
}

}  // namespace reports::sample
