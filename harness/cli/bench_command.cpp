// `rmabench bench`: benchmark a script or a suite — every case is run in bench mode (the
// run hook recorded once, then replayed under Google Benchmark on the origin rank), through
// the run pipeline (cli/pipeline.hpp); the results are printed as OSU-style tables and
// written, as Google Benchmark's own JSON entries, in the report's `benchmarks`.
#include "cli/commands.hpp"
#include "cli/launcher_executor.hpp"
#include "cli/pipeline.hpp"
#include "cli/sizes.hpp"
#include "launcher/mpi_launch.hpp"
#include "launcher/topology.hpp"

namespace harness::cli {
namespace {

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

// The sweep every case is replayed over (CaseSpec::bench).
nlohmann::json bench_settings(const BenchArgs& args) {
  nlohmann::json bench = nlohmann::json::object();
  if (!args.sizes.empty()) {
    std::string err;
    auto sizes = parse_sizes(args.sizes, err);
    if (!sizes) throw suite::UsageError(err);
    bench["sizes"] = *sizes;
  }
  if (!args.sync.empty()) {
    auto syncs = split(args.sync);
    for (const auto& s : syncs)
      if (s != "lock" && s != "flush" && s != "flush_local" && s != "lock_all" && s != "pscw" &&
          s != "fence")
        throw suite::UsageError("--sync " + s +
                                ": expected lock, flush, flush_local, lock_all, "
                                "pscw or fence");
    bench["syncs"] = syncs;
  }
  bench["repetitions"] = args.repetitions;
  bench["min_time_s"] = args.min_time_s;
  bench["targets"] = args.target_mode == "both" ? std::vector<std::string>{"wait", "compute"}
                                                : std::vector<std::string>{args.target_mode};
  return bench;
}

}  // namespace

int bench_command(BenchArgs& args) {
  const nlohmann::json bench = bench_settings(args);
  if (!args.run.overrides.timeout_s) args.run.overrides.timeout_s = 600;
  RunPlan plan;
  plan.expansion = expand_input(args.run);
  const auto mpi = launcher::mpi_for_run(args.run.impl, args.run.mpi_args, args.run.mpi_env);
  if (mpi) launcher::retarget(plan.expansion, *mpi, args.run.overrides.progress.has_value());
  for (auto& c : plan.expansion.cases) {
    c.mode = "bench";
    c.bench = bench;
  }
  plan.command = args.run.command_line;
  plan.options = {{"input", args.run.input},
                  {"mode", "bench"},
                  {"bench", bench},
                  {"bind", args.run.overrides.bind}};
  if (mpi) plan.options["impl"] = launcher::mpi_context(*mpi);
  plan.bench_table = true;
  launcher::Topology topology;
  plan.topology = topology.summary();
  LauncherExecutor executor(args.run, topology, true, mpi ? &*mpi : nullptr);
  return run_pipeline(args.run, plan, executor);
}

}  // namespace harness::cli
