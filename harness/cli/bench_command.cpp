// `rmabench bench`: benchmark a script or a suite — every case is run in bench mode (the
// run hook recorded once, then replayed under Google Benchmark on the origin rank), through
// the run pipeline (cli/pipeline.hpp); the results are printed as OSU-style tables and
// written, as Google Benchmark's own JSON entries, in the report's `benchmarks`.
//
// `--impl ref,mpich,openmpi` (cli/impl_list.hpp) runs every case on each implementation in
// turn, in the order listed, in one run: the tables put them side by side against the
// reference. A run with a figure on shared memory (the reference's shm backend, an MPI) ends
// with the hardware floor (worker/floor_bench.hpp), measured over the sizes the run used.
// An MPI's figures are each timed beside the same loop in plain C with that MPI, in the same
// launch (worker/plain_figure.hpp), which the tables read the replay against.
#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "cli/cli_list.hpp"
#include "cli/commands.hpp"
#include "cli/impl_list.hpp"
#include "cli/launcher_executor.hpp"
#include "cli/pipeline.hpp"
#include "cli/provider_check.hpp"
#include "cli/sizes.hpp"
#include "launcher/topology.hpp"
#include "mpi/mpi_launch.hpp"

namespace harness::cli {
namespace {

// The sweep every case is replayed over (CaseSpec::bench).
nlohmann::json bench_settings(const BenchArgs& args) {
  nlohmann::json bench = nlohmann::json::object();
  if (args.sizes) {
    std::string err;
    auto sizes = parse_sizes(*args.sizes, err);
    if (!sizes) throw suite::UsageError(err);
    bench["sizes"] = *sizes;
  }
  if (args.sync)
    bench["syncs"] = choice_list("--sync", *args.sync,
                                 {"lock", "flush", "flush_local", "lock_all", "pscw", "fence"},
                                 "lock, flush, flush_local, lock_all, pscw or fence");
  bench["repetitions"] = args.repetitions;
  bench["min_time_s"] = args.min_time_s;
  const auto targets =
      choice_list("--target-mode", args.target_mode == "both" ? "wait,compute" : args.target_mode,
                  {"wait", "recv", "compute"}, "wait, recv, compute, both or a list of them");
  bench["targets"] = targets;
  return bench;
}

// The floor's settings: the run's, its memcpy over the sizes the run measures, which a
// suite may give as its cases' `size` option instead of --sizes.
nlohmann::json floor_settings(const nlohmann::json& bench,
                              const std::vector<suite::CaseSpec>& cases) {
  if (bench.contains("sizes")) return bench;
  std::set<std::uint64_t> sizes;
  for (const auto& c : cases) {
    const auto it = c.options.find("size");
    std::string err;
    if (it == c.options.end()) continue;
    if (auto one = parse_sizes(it->second, err); one && one->size() == 1)
      sizes.insert(one->front());
  }
  nlohmann::json floor = bench;
  if (!sizes.empty()) floor["sizes"] = std::vector<std::uint64_t>(sizes.begin(), sizes.end());
  return floor;
}

// The floor case: two reference ranks on shm, bound as every other case of the run.
suite::CaseSpec floor_case(const suite::CaseSpec& like, const nlohmann::json& bench) {
  suite::CaseSpec c = like;
  c.suite.clear();
  c.script.clear();
  c.stem = "floor";
  c.ranks = 2;
  c.backend = suite::kShmBackend;
  c.path = rma::Path::am;
  c.provider.clear();
  c.progress = rma::ProgressMode::async;
  c.protocols = {rma::Protocol::fewest};
  c.protocol_in_id = false;
  c.options.clear();
  c.expected = suite::Expected::pass;
  c.tags = {"floor"};
  c.impl = suite::kReferenceImpl;
  c.check = suite::Check::none;
  c.mode = suite::CaseMode::floor;
  c.bench = bench;
  c.id = "floor[shm,np=2]";
  return c;
}

// The cases an entry runs under each am protocol become one case per pattern whose figures
// are measured interleaved in one launch (worker/bench_loop.hpp): run as separate launches,
// a change of the machine's state between them (the two virtual cores' placement, which
// moves the floor by 5x here) turned the ratio between protocols into noise. The paired
// case's protocols list them all (`fewest+ch3` in its id). Returns each merged
// case's id before -> after.
std::map<std::string, std::string> pair_protocols(std::vector<suite::CaseSpec>& cases) {
  std::vector<suite::CaseSpec> out;
  std::map<std::string, std::size_t> first;  // id without the protocol -> index in out
  std::map<std::string, std::vector<std::string>> members;  // index's id -> ids merged
  for (auto& c : cases) {
    if (!c.protocol_in_id || !c.on_reference() || c.path != rma::Path::am) {
      out.push_back(std::move(c));
      continue;
    }
    suite::CaseSpec key = c;
    key.protocol_in_id = false;
    auto [it, fresh] = first.emplace(suite::make_case_id(key), out.size());
    if (fresh) {
      out.push_back(std::move(c));
      continue;
    }
    suite::CaseSpec& paired = out[it->second];
    members[it->first].push_back(c.id);
    paired.protocols.insert(paired.protocols.end(), c.protocols.begin(), c.protocols.end());
  }
  std::map<std::string, std::string> renamed;
  for (const auto& [key, index] : first) {
    suite::CaseSpec& paired = out[index];
    const std::string before = paired.id;
    paired.id = suite::make_case_id(paired);
    renamed[before] = paired.id;
    for (const auto& id : members[key]) renamed[id] = paired.id;
  }
  cases = std::move(out);
  return renamed;
}

// The ids each case had before --sizes folded it (fold_sizes), by its id after: --filter
// matches them too, so an id from a report of an earlier run still selects its case.
using IdsBefore = std::map<std::string, std::vector<std::string>>;

// Keeps, in order, each item whose id is not yet in `seen` (which it adds).
template <class T, class IdOf>
void drop_repeated_ids(std::vector<T>& items, std::set<std::string>& seen, IdOf id_of) {
  std::vector<T> kept;
  for (auto& item : items)
    if (seen.insert(id_of(item)).second) kept.push_back(std::move(item));
  items = std::move(kept);
}

// --sizes sweeps every case's `size` (worker/bench_runner.cpp), so the sizes a suite lists
// no longer tell its cases apart: each would measure the same sizes under an id naming one
// it does not, and their figures would share names (the gate pairs figures by name). One
// case per configuration remains, its id without the size; a configuration that runs at
// any of its sizes runs, and none of its sizes stays among the excluded (the gate refuses an
// id that is both run and excluded).
IdsBefore fold_sizes(suite::Expansion& ex) {
  IdsBefore before;
  const auto fold = [&](suite::CaseSpec& c) {
    const std::string was = c.id;
    if (c.options.erase("size") == 0) return;
    c.id = suite::make_case_id(c);
    before[c.id].push_back(was);
  };
  for (auto& c : ex.cases) fold(c);
  for (auto& e : ex.excluded) fold(e.first);
  std::set<std::string> seen;
  drop_repeated_ids(ex.cases, seen, [](const suite::CaseSpec& c) { return c.id; });
  drop_repeated_ids(ex.excluded, seen, [](const auto& e) { return e.first.id; });
  return before;
}

// --filter, applied by the bench itself: a case is kept when its id, an id it had before
// --sizes folded it, or the id pairing gives it, contains the text (an id from a report
// then selects its case).
void filter_cases(suite::Expansion& ex, const std::string& filter, const std::string& input,
                  const IdsBefore& folded) {
  if (filter.empty()) return;
  std::vector<suite::CaseSpec> copy = ex.cases;
  const auto renamed = pair_protocols(copy);
  const auto has = [&](const std::string& id) { return id.find(filter) != std::string::npos; };
  auto matches = [&](const suite::CaseSpec& c) {
    const auto it = renamed.find(c.id);
    const auto was = folded.find(c.id);
    return has(c.id) || (it != renamed.end() && has(it->second)) ||
           (was != folded.end() && std::any_of(was->second.begin(), was->second.end(), has));
  };
  std::erase_if(ex.cases, [&](const suite::CaseSpec& c) { return !matches(c); });
  std::erase_if(ex.excluded, [&](const auto& e) { return !matches(e.first); });
  if (ex.cases.empty() && ex.excluded.empty())
    throw suite::UsageError(input + ": no case to run matches --filter");
}

bool on_shared_memory(const suite::CaseSpec& c) {
  return !c.on_reference() || c.backend == suite::kShmBackend;
}

// Runs the cases as usual; the floor, last, gets the sizes the cases before it measured.
class BenchExecutor final : public CaseExecutor {
 public:
  explicit BenchExecutor(LauncherExecutor& inner) : inner_(inner) {}
  void on_figures(Figures f) override { inner_.on_figures(std::move(f)); }
  Executed execute(const suite::CaseSpec& spec) override {
    if (spec.mode != suite::CaseMode::floor) {
      Executed done = inner_.execute(spec);
      for (const auto& b : done.outcome.benchmarks)
        if (b.is_object() && b.contains("size") && b["size"].is_number_unsigned() &&
            b["size"].get<std::uint64_t>() > 0)
          sizes_.insert(b["size"].get<std::uint64_t>());
      return done;
    }
    suite::CaseSpec floor = spec;
    if (floor.bench.value("sizes", nlohmann::json::array()).empty())
      floor.bench["sizes"] = std::vector<std::uint64_t>(sizes_.begin(), sizes_.end());
    return inner_.execute(floor);
  }

 private:
  LauncherExecutor& inner_;
  std::set<std::uint64_t> sizes_;
};

}  // namespace

int bench_command(BenchArgs& args) {
  const nlohmann::json bench = bench_settings(args);
  if (!args.run.overrides.timeout_s) args.run.overrides.timeout_s = 600;
  const std::vector<ImplChoice> impls =
      resolve_impl_list(args.run.impl, args.run.mpi_args, args.run.mpi_env, args.run.mpi_start);
  RunPlan plan;
  const std::string filter = std::exchange(args.run.overrides.filter, std::string());
  suite::Expansion base = expand_input(args.run);
  args.run.overrides.filter = filter;
  const IdsBefore folded = bench.contains("sizes") ? fold_sizes(base) : IdsBefore{};
  filter_cases(base, filter, args.run.input, folded);
  std::vector<mpi::MpiLaunch> mpis;
  nlohmann::json impl_contexts = nlohmann::json::array();
  for (const auto& choice : impls) {
    suite::Expansion ex = base;
    if (choice.mpi) {
      mpi::retarget(ex, *choice.mpi, args.run.overrides.progress.has_value());
      mpis.push_back(*choice.mpi);
      impl_contexts.push_back(mpi::mpi_context(*choice.mpi));
    } else {
      impl_contexts.push_back({{"impl", "ref"}});
    }
    plan.expansion.cases.insert(plan.expansion.cases.end(), ex.cases.begin(), ex.cases.end());
    plan.expansion.excluded.insert(plan.expansion.excluded.end(), ex.excluded.begin(),
                                   ex.excluded.end());
  }
  check_provider(args.run.overrides.provider, plan.expansion, args.run.input,
                 libfabric_providers());
  bool shared_memory = false;
  for (auto& c : plan.expansion.cases) {
    c.mode = suite::CaseMode::bench;
    c.bench = bench;
    shared_memory |= on_shared_memory(c);
  }
  pair_protocols(plan.expansion.cases);
  if (!args.no_floor) {
    // Every two-rank reference figure also gets its floor's round trip measured just before
    // it (worker/floor_bench.hpp): on shm the cache line, on fabric a raw send/recv; the
    // run's floor case, after the shared-memory figures, adds memcpy. Not with more ranks:
    // on fewer cores than ranks the round trip of ranks 0 and 1 measures the scheduler
    // (milliseconds), and a core of its own per rank is what the floor assumes.
    for (auto& c : plan.expansion.cases)
      if (c.on_reference() && c.ranks == 2) c.bench["floor_each"] = true;
    if (shared_memory && !plan.expansion.cases.empty())
      plan.expansion.cases.push_back(
          floor_case(plan.expansion.cases.front(), floor_settings(bench, plan.expansion.cases)));
  }
  plan.command = args.run.command_line;
  plan.options = {{"input", args.run.input},
                  {"mode", "bench"},
                  {"bench", bench},
                  {"bind", args.run.overrides.bind},
                  {"impls", impl_contexts}};
  if (impls.size() == 1 && impls.front().mpi) plan.options["impl"] = impl_contexts.front();
  plan.bench_table = true;
  launcher::Topology topology;
  plan.topology = topology.summary();
  LauncherExecutor launch(args.run, topology, true, mpis);
  BenchExecutor executor(launch);
  return run_pipeline(args.run, plan, executor);
}

}  // namespace harness::cli
