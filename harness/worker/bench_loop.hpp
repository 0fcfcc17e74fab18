// bench_loop.hpp — the one timed loop every benchmark of `rmabench bench` runs under: rank 0
// (the origin) registers the benchmark with Google Benchmark (manual timing, the run's min
// time and repetitions) and, before each batch Google Benchmark asks for, tells the other
// ranks how many iterations follow; they run theirs in lockstep (or, for a passive target with
// nothing to do, wait in the closing barrier, or in a recv of rank 0's "batch over" message —
// or compute without calling the library). One
// iteration is whatever the caller gives: a recorded op program's replay (bench_runner.cpp) or
// the hardware floor's cache-line round trip and memcpy (floor_bench.cpp), so every figure and
// its floor are timed the same way. The caller runs a whole batch (Iteration takes the count):
// a call through std::function, a Status and the replay's entry per iteration were harness
// cost in every figure, an MPI's replayed one included.
//
// Several figures can be led together (the am protocols of one pattern): Google Benchmark
// then runs their repetitions in random interleaved order, so a change of the machine's state
// during the run (here: where the two virtual cores sit) falls on every figure alike, and
// their ratio means something. Each batch tells the other ranks which figure it replays.
//
//   BenchLoop loop(impl, ctrl, spec.bench);
//   auto replay = [&](std::uint64_t n) { return program.replay(impl, n); };
//   rank 0:  auto entries = loop.lead(name, "wait", replay);
//   others:  loop.follow(replay, false);
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "impl/implementation.hpp"
#include "launcher/control.hpp"
#include "lua/lua_call.hpp"
#include "rma/status.hpp"

namespace harness::worker {

// Batches a computing target may stop: set by the worker's control thread when the parent
// relays the origin's "batch done".
std::atomic<std::uint64_t>& compute_stop_batch();

// Google Benchmark's JSON with its bare nan/inf values (not JSON) turned into null.
std::string json_without_nan(const std::string& text);

// Rank 0: hands finished entries to the parent the moment they exist (a "figures" message,
// launcher/launcher.hpp), not with the case's result: a sweep stopped by a signal, a
// deadline or an error later on keeps every figure measured before.
void report_figures(launcher::ControlChannel& ctrl, nlohmann::json entries);

// Tags of the loop's own messages: no larger than 32767, the MPI_TAG_UB every MPI library
// guarantees (MPICH's is not much larger); scripts must not use them.
inline constexpr int kBenchCommandTag = 32767;
inline constexpr int kBenchCountTag = 32766;
inline constexpr int kBenchReleaseTag = 32765;  // target mode recv: the batch is over
inline constexpr int kBenchRawTag = 32764;      // the fabric floor's raw round trip
static_assert(kBenchRawTag >= lua::kFirstHarnessTag && kBenchCommandTag <= lua::kLastHarnessTag,
              "scripts are refused exactly the tags the loop uses");

class BenchLoop {
 public:
  // Runs `times` iterations, stopping at the first failure.
  using Iteration = std::function<rma::Status(std::uint64_t times)>;
  // The Iteration of a callable that does one iteration and returns its Status.
  template <class One>
  static Iteration each(One one) {
    return [one = std::move(one)](std::uint64_t times) mutable {
      for (std::uint64_t i = 0; i < times; ++i) RMA_TRY(one());
      return rma::Status::ok();
    };
  }
  struct Figure {
    std::string name;  // the Google Benchmark name: unique within one lead
    Iteration iteration;
    double bytes_per_iteration = 0;  // > 0: a bandwidth figure
  };

  // `settings`: CaseSpec::bench (min_time_s, repetitions).
  BenchLoop(impl::Implementation& impl, launcher::ControlChannel& ctrl,
            const nlohmann::json& settings)
      : impl_(impl), ctrl_(ctrl), settings_(settings) {}

  struct Led {
    nlohmann::json entries = nlohmann::json::array();  // Google Benchmark's, unannotated
    bool messages_measured = true;  // false: some rank could not observe its packets
  };
  // Rank 0: runs the benchmark `name`; `target` is "wait", "recv" or "compute" (what the
  // other ranks do when they have no iteration of their own: wait in the barrier, wait in a
  // recv, compute). Ends with the followers' release.
  rma::Result<Led> lead(const std::string& name, const std::string& target,
                        const Iteration& iteration, double bytes_per_iteration = 0);
  // Rank 0: the figures' repetitions interleaved at random; an entry's family_index is its
  // figure's index.
  rma::Result<Led> lead(const std::vector<Figure>& figures, const std::string& target);
  // Other ranks: run `iteration` as often as each batch says, until rank 0 is done. With
  // `compute_when_idle`, a rank with no iteration of its own (`iteration` empty) computes
  // without calling the library instead of waiting in the barrier (the truly-passive case);
  // in target mode recv (told by rank 0) it waits in a recv, then the barrier.
  rma::Status follow(const Iteration& iteration, bool compute_when_idle);
  // Other ranks of a lead of several figures: `iterations[i]` runs figure i's batches (an
  // empty function: no iteration of its own in that figure, as above).
  rma::Status follow(const std::vector<Iteration>& iterations, bool compute_when_idle);

 private:
  impl::Implementation& impl_;
  launcher::ControlChannel& ctrl_;
  const nlohmann::json& settings_;
};

}  // namespace harness::worker
