#include "worker/bench_runner.hpp"

#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "impl/program.hpp"
#include "rma/trace.hpp"
#include "worker/bench_loop.hpp"
#include "worker/floor_bench.hpp"
#include "worker/plain_figure.hpp"
#include "worker/script_session.hpp"
#include "worker/trace_record.hpp"

namespace harness::worker {
namespace {

using nlohmann::json;

std::string size_text(std::uint64_t n) {
  return std::to_string(n);
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

// One recorded program of a configuration: under the case's am protocol, or one of the
// protocols a paired case measures side by side.
struct Figure {
  rma::Protocol protocol = rma::Protocol::fewest;
  impl::Program program;
  json expected;  // the declared messages (rank 0)
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

    // A case of several am protocols (cli/bench_command.cpp pairs them) records one program
    // per protocol, each on windows of its own, and leads them together.
    const std::vector<rma::Protocol>& protocols = spec_.protocols;
    const bool paired = protocols.size() > 1;

    for (const auto& sync : syncs) {
      for (const auto& size : sizes) {
        auto opts = spec_.options;
        if (!size.empty()) opts["size"] = size;
        if (!sync.empty()) opts["sync"] = sync;
        s_.set_options(opts);
        std::vector<Figure> figures(protocols.size());
        for (std::size_t k = 0; k < protocols.size(); ++k) {
          Figure& fig = figures[k];
          fig.protocol = protocols[k];
          if (paired) s_.set_protocol(fig.protocol);
          s_.new_ctx(k);
          if (!s_.call_hook("setup", f)) return s_.ended(f);
          // --trace: the first configuration's recording run, its first iteration; cleared
          // before the barrier so that no peer's packet of it comes earlier.
          const bool trace_now = spec_.trace && trace_.is_null();
          if (trace_now) rma::trace::clear();
          if (!s_.barrier(f)) return s_.ended(f);
          s_.phase("run (recording)");
          s_.ctx().recorder = &fig.program;
          const bool ok = s_.call_hook("run", f);
          s_.ctx().recorder = nullptr;
          if (!ok) return s_.ended(f);
          if (!s_.barrier(f)) return s_.ended(f);
          if (trace_now) {
            trace_ = trace_json(impl_.rank());
            rma::trace::set_recording(false);  // the timed loops run untraced
          }
          if (impl_.rank() == 0 && !s_.declared_messages(fig.expected, f)) return s_.ended(f);
        }

        Config cfg = describe(opts, declared);
        for (const auto& target : targets) {
          cfg.target = target;
          std::optional<FloorRoundTrips> floor;
          // On shm the cache line between the two cores; elsewhere the raw round trip, which
          // only a latency is read against.
          const bool shm = spec_.backend == suite::kShmBackend;
          if (spec_.bench.value("floor_each", false) && impl_.size() >= 2 &&
              (shm || cfg.metric != "bandwidth")) {
            s_.phase(shm ? "floor (cache-line round trip)" : "floor (send/recv round trip)");
            auto rt = shm ? floor_round_trips(spec_, impl_, s_.ctrl(), std::to_string(floors_++))
                          : raw_round_trip(spec_, impl_, s_.ctrl());
            if (!rt) {
              f.where = "benchmark floor";
              f.message = rt.status().to_string();
              return s_.ended(f);
            }
            floor = rt.value();
          }
          Plain plain = plain_of(cfg);
          s_.phase("run (benchmark)");
          json entries = json::array();
          rma::Status st = impl_.rank() == 0 ? lead(figures, cfg, floor, plain, entries)
                                             : follow(figures, plain, target == "compute");
          if (!st) {
            // The loop's close is collective, and a peer may be gone: left to the exit.
            static_cast<void>(plain.loop.release());
            f.where = "benchmark " + cfg.pattern;
            f.message = st.to_string();
            return s_.ended(f);
          }
          s_.phase("plain loop (close)");
          plain.loop.reset();
          report_figures(s_.ctrl(), std::move(entries));
        }
        for (std::size_t k = 0; k < protocols.size(); ++k) {
          if (paired) s_.set_protocol(protocols[k]);
          s_.use_ctx(k);
          if (!s_.call_hook("teardown", f)) return s_.ended(f);
        }
        if (!s_.barrier(f)) return s_.ended(f);
      }
    }
    json result = {{"rank", impl_.rank()}, {"early", false}};
    s_.add_context(result);
    result["status"] = s_.ctx().failures.empty() ? "pass" : "fail";
    if (!trace_.is_null()) result["trace"] = trace_;
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
    return p.empty() ? spec_.path_name() : p;
  }

  // The am protocol a figure ran under; none where there is none (the direct path, an MPI).
  std::optional<rma::Protocol> protocol(const Figure& fig) const {
    if (spec_.on_reference() && path_text() == suite::name(rma::Path::am)) return fig.protocol;
    return std::nullopt;
  }

  // Unique within a run, as the gate pairs figures by name: beside the swept sync and size,
  // whatever else tells this case from the suite's others (its case id's dimensions) is
  // named where it is not the default, so two entries of one script never share a name.
  std::string name(const Config& c, const Figure& fig) const {
    std::string n = c.pattern + "/" + c.sync + "/" + (c.has_size ? size_text(c.size) : "0") + "/" +
                    spec_.backend + ":" + (spec_.on_reference() ? path_text() : spec_.impl);
    if (spec_.on_fabric() && !spec_.provider.empty()) n += "/provider:" + spec_.provider;
    if (impl_.size() != 2) n += "/np:" + std::to_string(impl_.size());
    if (!spec_.on_reference() || spec_.progress != rma::ProgressMode::async)
      n += "/progress:" + suite::name(spec_.progress);
    for (const auto& [k, v] : spec_.options)
      if (k != "size" && k != "sync") n += "/" + k + ":" + v;
    if (c.target != "wait") n += "/target:" + c.target;
    // The default protocol keeps the names earlier reports have (the gate pairs by name).
    if (const auto p = protocol(fig); p && *p != rma::Protocol::fewest)
      n += "/protocol:" + suite::name(*p);
    return n;
  }

  // The case's other options ("block=64 layout=vector"): figures of one pattern that differ
  // in them sit side by side in one table, a column each.
  std::string variant() const {
    std::string v;
    for (const auto& [k, val] : spec_.options)
      if (k != "size" && k != "sync" && k != "op" && k != "flavor")
        v += (v.empty() ? "" : " ") + k + "=" + val;
    return v;
  }

  // An MPI's plain loop of the configuration (worker/plain_figure.hpp), made on every rank
  // (collective), or why it has none.
  struct Plain {
    std::unique_ptr<impl::PlainLoop> loop;
    std::string why_not;  // an MPI's figure without one; "" on the reference
  };
  Plain plain_of(const Config& cfg) {
    Plain p;
    if (spec_.on_reference()) return p;
    const PlainChoice c = plain_choice({cfg.pattern, cfg.op, cfg.sync, cfg.flavor, cfg.target,
                                        variant(), cfg.has_size ? cfg.size : 0, impl_.size()});
    p.why_not = c.why_not;
    if (!p.why_not.empty()) return p;
    s_.phase("plain loop (setup)");
    auto made = impl_.plain_loop(c.pattern);
    if (made)
      p.loop = std::move(made.value());
    else
      p.why_not = made.status().message();
    return p;
  }

  // The plain loop's batches: on a rank that calls nothing in it, none (the loop waits in
  // the barrier, as for a replay with nothing on this rank).
  static BenchLoop::Iteration plain_iteration(impl::PlainLoop& loop) {
    if (!loop.active()) return {};
    return [&loop](std::uint64_t n) { return loop.run(n); };
  }

  // Rank 0: the loop times the replays (and an MPI's plain loop, interleaved with them) and
  // the entries get what ran.
  rma::Status lead(std::vector<Figure>& figures, const Config& cfg,
                   const std::optional<FloorRoundTrips>& floor, Plain& plain, json& entries) {
    BenchLoop loop(impl_, s_.ctrl(), spec_.bench);
    std::vector<BenchLoop::Figure> timed;
    const double bytes =
        cfg.metric == "bandwidth" ? static_cast<double>(cfg.bytes_per_iteration) : 0.0;
    for (auto& fig : figures)
      timed.push_back({name(cfg, fig),
                       [this, &fig](std::uint64_t n) { return fig.program.replay(impl_, n); },
                       bytes});
    if (plain.loop)
      timed.push_back(
          {plain_figure_name(name(cfg, figures.front())), plain_iteration(*plain.loop), bytes});
    auto led = loop.lead(timed, cfg.target);
    if (!led) return led.status();
    std::string replayed_run;  // the run name of the figure a plain one stands beside
    for (auto& e : led.value().entries)
      if (e.value("family_index", std::size_t{0}) == 0) replayed_run = e.value("run_name", "");
    for (auto& e : led.value().entries) {
      // Google Benchmark numbers the benchmarks in the order the loop registered them.
      const std::size_t k = e.value("family_index", std::size_t{0});
      if (k >= timed.size())
        return {rma::ErrorClass::intern, "benchmark: Google Benchmark entry of family " +
                                             std::to_string(k) + " of " +
                                             std::to_string(timed.size())};
      const bool is_plain = k == figures.size();
      const Figure* fig = &figures[is_plain ? 0 : k];
      e["case"] = spec_.id;
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
      if (const std::string v = variant(); !v.empty()) e["variant"] = v;
      e["ranks"] = impl_.size();
      e["impl"] = impl_.name();
      if (const auto p = protocol(*fig)) e["protocol"] = suite::name(*p);
      if (figures.size() > 1) e["interleaved"] = true;
      if (!led.value().messages_measured)
        e["messages_reason"] = "not observable in " + impl_.name();
      if (fig->expected.is_object() && fig->expected.contains("total"))
        e["messages_expected"] = fig->expected["total"];
      if (floor) e["floor_round_trip_us"] = floor->floor_us;
      if (floor && floor->queue_us) e["queue_round_trip_us"] = *floor->queue_us;
      if (is_plain) mark_plain_entry(e, replayed_run);
      entries.push_back(std::move(e));
    }
    if (!plain.why_not.empty() && !entries.empty())
      entries.push_back(no_plain_entry(entries.front(), plain.why_not));
    return rma::Status::ok();
  }

  // Other ranks: replay (or run the plain loop) in lockstep with rank 0's batches.
  rma::Status follow(std::vector<Figure>& figures, Plain& plain, bool compute) {
    BenchLoop loop(impl_, s_.ctrl(), spec_.bench);
    std::vector<BenchLoop::Iteration> its;  // empty where this rank has no call of its own
    for (auto& fig : figures) {
      its.emplace_back();
      if (!fig.program.empty())
        its.back() = [this, &fig](std::uint64_t n) { return fig.program.replay(impl_, n); };
    }
    if (plain.loop) its.push_back(plain_iteration(*plain.loop));
    return loop.follow(its, compute);
  }

  ScriptSession& s_;
  impl::Implementation& impl_;
  const suite::CaseSpec& spec_;
  json trace_;      // --trace: this rank's record of the first recording run
  int floors_ = 0;  // round trips measured so far (each maps a segment of its own name)
};

}  // namespace

json run_bench_script(const suite::CaseSpec& spec, impl::Implementation& impl,
                      launcher::ControlChannel& ctrl, StateBoard& board) {
  ScriptSession s(spec, impl, ctrl, board);
  Bench b(s);
  return b.run();
}

}  // namespace harness::worker
