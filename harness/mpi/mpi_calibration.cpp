// mpi_calibration.cpp — the plain-C calibration of an MPI's figures (see the header): which
// replayed figures have a counterpart, one launch of rmabench-calibrate-<mpi> per figure
// through the MPI's launcher, and the program's line turned into Google Benchmark entries.
#include "mpi/mpi_calibration.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <set>

#include "launcher/rank_results.hpp"
#include "launcher/spawn.hpp"
#include "reports/benchmark_runs.hpp"

namespace harness::mpi {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::string text_of(const json& e, const char* key) {
  const auto it = e.find(key);
  return it != e.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The replayed entry's run name: what the gate and compare.py pair figures by.
std::string run_name_of(const json& e) {
  const std::string r = text_of(e, "run_name");
  return r.empty() ? text_of(e, "name") : r;
}

// "<replayed up to /min_time:>/plain_c/min_time:...": unique in the run, beside its figure.
std::string calibration_name(const std::string& replayed) {
  std::string base = replayed;
  const std::string manual = "/manual_time";
  if (base.size() > manual.size() && base.ends_with(manual))
    base.resize(base.size() - manual.size());
  const auto at = base.find("/min_time:");
  if (at == std::string::npos) return base + "/plain_c";
  return base.substr(0, at) + "/plain_c" + base.substr(at);
}

// The fields a calibration entry shares with the figure it calibrates (docs/benchmarks.md).
json fields_of(const json& replayed, const std::string& case_id, const std::string& name) {
  json e = {{"name", name},
            {"run_name", name},
            {"case", case_id},
            {"calibration", "plain_c"},
            {"replayed", run_name_of(replayed)}};
  for (const char* k : {"pattern", "op", "sync", "size", "metric", "target", "backend", "path",
                        "provider", "flavor", "ranks", "impl"})
    if (replayed.contains(k)) e[k] = replayed[k];
  // Its own implementation name, so plots and lists keep it apart from the replay; the table
  // puts it beside the replay's figure by `replayed_impl`.
  e["replayed_impl"] = text_of(replayed, "impl");
  e["impl"] = text_of(replayed, "impl") + " plain C";
  e["messages_reason"] = "not observable in a plain C program";
  return e;
}

// Google Benchmark's aggregates of the repetitions, in microseconds.
void add_aggregates(json& out, const json& base, const std::vector<double>& us, int reps) {
  double mean = 0;
  for (double v : us) mean += v / static_cast<double>(us.size());
  double var = 0;
  for (double v : us) var += (v - mean) * (v - mean) / static_cast<double>(us.size() - 1);
  const std::vector<std::pair<const char*, double>> aggs = {
      {"mean", mean},
      {"median", reports::median_of(us)},
      {"stddev", std::sqrt(var)},
      {"min", *std::min_element(us.begin(), us.end())},
      {"max", *std::max_element(us.begin(), us.end())}};
  for (const auto& [agg, v] : aggs) {
    json a = base;
    a["name"] = base["run_name"].get<std::string>() + "_" + agg;
    a["run_type"] = "aggregate";
    a["aggregate_name"] = agg;
    a["aggregate_unit"] = "time";
    a["repetitions"] = reps;
    a["real_time"] = v;
    a["cpu_time"] = v;
    out.push_back(std::move(a));
  }
}

// Runs argv in a process group of its own; stdout and stderr kept apart. Killed (the group)
// at the deadline or when the run is asked to stop.
struct Ran {
  std::string out, err;
  std::string how;  // "" exited 0, else "exited with code N", "was killed by signal N", ...
};
Ran run_bounded(const std::vector<std::string>& words, double timeout_s) {
  Ran r;
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    r.how = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    r.how = std::string("pipe: ") + std::strerror(errno);
    ::close(out[0]);
    ::close(out[1]);
    return r;
  }
  launcher::SpawnSpec sp;
  sp.argv = words;
  sp.stdin_null = true;
  sp.dup2 = {{out[1], 1}, {err[1], 2}};
  pid_t pid = -1;
  const int rc = launcher::spawn_process(sp, pid);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(out[0]);
    ::close(err[0]);
    r.how = launcher::spawn_error(sp, rc);
    return r;
  }
  const auto until = Clock::now() + std::chrono::duration<double>(timeout_s);
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open = 2;
  bool killed = false;
  while (open > 0) {
    if (Clock::now() >= until || launcher::stop_requested()) {
      ::kill(-pid, SIGKILL);  // the launcher and every rank it started in its group
      killed = true;
      break;
    }
    if (::poll(fds, 2, 100) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (killed)
    r.how = launcher::stop_requested() ? "stopped by a signal to rmabench"
                                       : "did not finish in " + std::to_string(timeout_s) + " s";
  else if (WIFSIGNALED(status))
    r.how = "was killed by signal " + std::to_string(WTERMSIG(status));
  else if (WEXITSTATUS(status) != 0)
    r.how = "exited with code " + std::to_string(WEXITSTATUS(status));
  return r;
}

// The last lines of a program's stderr, for a failure's reason.
std::string tail_of(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  if (t.size() > 400) t = "..." + t.substr(t.size() - 400);
  return t;
}

// The calibration program built beside the MPI's worker (harness/mpi/mpi.cmake).
std::string program_of(const mpi::MpiLaunch& mpi) {
  return (std::filesystem::path(mpi.worker).parent_path() / ("rmabench-calibrate-" + mpi.name))
      .string();
}

}  // namespace

suite::CaseSpec calibration_case(const suite::CaseSpec& like) {
  suite::CaseSpec c = like;
  c.suite.clear();
  c.script.clear();
  c.stem = "calibration";
  c.ranks = 2;
  c.options.clear();
  c.expected = suite::Expected::pass;
  c.tags = {"calibration"};
  c.check = suite::Check::none;
  c.mode = suite::CaseMode::calibrate;
  c.protocol_in_id = false;
  c.id = "calibration[impl=" + like.impl + "]";
  return c;
}

CalibrationConfig calibration_config(const json& e) {
  CalibrationConfig c;
  const std::string pattern = text_of(e, "pattern");
  const bool pingpong = pattern == "bench/pingpong" || pattern == "pingpong";
  if (!pingpong && pattern != "bench/latency" && pattern != "latency") {
    c.why_not =
        "no plain-C calibration of pattern " + pattern + " (only bench/latency and bench/pingpong)";
    return c;
  }
  // A ping-pong has no passive target: both ranks run every iteration.
  if (!pingpong && text_of(e, "target") != "wait") {
    c.why_not = "no plain-C calibration with the target in mode " + text_of(e, "target") +
                " (only wait: the target in a barrier)";
    return c;
  }
  // The C loop takes the op, sync, size and flavor; any other option (a put of long_int
  // pairs) would be timed as something else.
  if (const std::string v = text_of(e, "variant"); !v.empty()) {
    c.why_not = "no plain-C calibration with " + v + " (the C loop takes op, sync, size, flavor)";
    return c;
  }
  if (e.value("ranks", 0) != 2) {
    c.why_not = "no plain-C calibration on " + std::to_string(e.value("ranks", 0)) + " ranks";
    return c;
  }
  const auto size = e.find("size");
  if (size == e.end() || !size->is_number_integer() || size->get<std::int64_t>() <= 0) {
    c.why_not = "no plain-C calibration without a size";
    return c;
  }
  if (pingpong) {
    c.args = {"--pattern", "pingpong", "--size", std::to_string(size->get<std::int64_t>())};
    return c;
  }
  const std::string flavor = text_of(e, "flavor").empty() ? "allocate" : text_of(e, "flavor");
  c.args = {"--op",     text_of(e, "op"),
            "--sync",   text_of(e, "sync"),
            "--size",   std::to_string(size->get<std::int64_t>()),
            "--flavor", flavor};
  return c;
}

json calibration_entries(const json& replayed, const std::string& case_id,
                         const std::string& output_line, const std::string& why_not) {
  json out = json::array();
  json base = fields_of(replayed, case_id, calibration_name(run_name_of(replayed)));
  std::string why = why_not;
  json line = why.empty() ? json::parse(output_line, nullptr, false) : json();
  std::vector<double> us;
  if (why.empty()) {
    const bool ok = line.is_object() && line.contains("iterations") &&
                    line["iterations"].is_number_unsigned() && line.contains("real_time_ns") &&
                    line["real_time_ns"].is_array() && !line["real_time_ns"].empty();
    for (const auto& v : ok ? line["real_time_ns"] : json::array()) {
      if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0) break;
      us.push_back(v.get<double>() / 1e3);
    }
    if (!ok || us.size() != line["real_time_ns"].size())
      why = "unreadable calibration output: " + tail_of(output_line);
  }
  if (!why.empty()) {
    base["run_type"] = "iteration";
    base["error_occurred"] = true;
    base["error_message"] = why;
    out.push_back(std::move(base));
    return out;
  }
  const int reps = static_cast<int>(us.size());
  if (reps > 1) base["repetitions"] = reps;
  base["threads"] = 1;
  base["iterations"] = line["iterations"];
  base["time_unit"] = "us";
  for (int r = 0; r < reps; ++r) {
    json e = base;
    e["run_type"] = "iteration";
    e["repetitions"] = reps;
    e["repetition_index"] = r;
    e["real_time"] = us[static_cast<std::size_t>(r)];
    e["cpu_time"] = us[static_cast<std::size_t>(r)];
    out.push_back(std::move(e));
  }
  if (reps > 1) add_aggregates(out, base, us, reps);
  return out;
}

launcher::CaseOutcome run_calibration(const suite::CaseSpec& spec, const mpi::MpiLaunch& mpi,
                                      const std::vector<Replayed>& replayed) {
  launcher::CaseOutcome o;
  o.result = launcher::base_result(spec);
  o.result.status = reports::Verdict::pass;
  const auto t0 = Clock::now();
  const std::string program = program_of(mpi);
  const bool built = ::access(program.c_str(), X_OK) == 0;
  std::set<std::string> done;
  for (const Replayed& r : replayed) {
    const json& e = r.entry;
    if (e.value("error_occurred", false) || !done.insert(run_name_of(e)).second) continue;
    CalibrationConfig cfg = calibration_config(e);
    if (cfg.why_not.empty() && !built)
      cfg.why_not = program + " was not built (harness/mpi/mpi.cmake builds it with the worker)";
    std::string line;
    if (cfg.why_not.empty()) {
      suite::CaseSpec as = spec;
      as.progress = r.progress;
      mpi::MpiLaunch m = mpi;
      m.worker = program;
      // Started as the cases were (its launcher, across the same hosts, or an srun step).
      std::vector<std::string> words = m.start->command(m, 2, mpi::mpi_case_env(m, as));
      words.insert(words.end(), cfg.args.begin(), cfg.args.end());
      const std::vector<std::string> timing = {
          "--min-time",    std::to_string(spec.bench.value("min_time_s", 0.05)),
          "--repetitions", std::to_string(spec.bench.value("repetitions", 1)),
          "--thread",      r.progress == rma::ProgressMode::async ? "multiple" : "serialized"};
      words.insert(words.end(), timing.begin(), timing.end());
      const Ran ran = run_bounded(words, spec.timeout_s);
      line = ran.out.substr(0, ran.out.find('\n'));
      if (!ran.how.empty()) {
        cfg.why_not = "rmabench-calibrate-" + mpi.name + " " + ran.how + ": " + tail_of(ran.err);
        o.result.status =
            launcher::stop_requested() ? reports::Verdict::interrupted : reports::Verdict::error;
        o.result.failures.push_back({0, "calibration " + run_name_of(e), cfg.why_not});
        if (o.result.reason.empty()) o.result.reason = cfg.why_not;
      }
    }
    for (auto& c : calibration_entries(e, spec.id, line, cfg.why_not))
      o.benchmarks.push_back(std::move(c));
    if (launcher::stop_requested()) break;
  }
  o.result.impl = replayed.empty() ? spec.impl : text_of(replayed.front().entry, "impl");
  o.result.duration_s = std::chrono::duration<double>(Clock::now() - t0).count();
  return o;
}

}  // namespace harness::mpi
