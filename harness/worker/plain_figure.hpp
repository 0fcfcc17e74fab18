// plain_figure.hpp — the plain-C figure beside an MPI's replayed one in `rmabench bench
// --impl`: the same pattern written directly against that MPI (impl::PlainLoop; for an MPI,
// harness/mpi/mpi_plain_loop.h), timed by the same loop in the same launch, its repetitions
// interleaved with the replay's (worker/bench_runner.cpp). One launch of MPICH can differ from
// the next by 1.2× in the same plain loop, so a replay and a plain loop timed in launches of
// their own could not tell a 1.1× harness cost from launch noise.
//
// Its entries are Google Benchmark entries like the replay's, with `calibration: "plain_c"`,
// `replayed` (the run name of the figure it stands beside), `replayed_impl` (the replay's
// `impl`) and `impl` "<that> plain C". A replayed figure with no plain counterpart gets one
// entry with `error_occurred` and the reason, never a time of 0.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "impl/implementation.hpp"

namespace harness::worker {

// A replayed figure as the plain loop that times the same thing, or why there is none.
struct PlainChoice {
  impl::PlainPattern pattern;
  std::string why_not;  // "" when pattern holds
};
struct ReplayedFigure {
  std::string pattern;  // the script's stem: "bench/latency", "bench/pingpong"
  std::string op, sync, flavor, target;
  std::string variant;  // the case's other options ("dtype=long_int"), "" when none
  std::uint64_t size = 0;
  int ranks = 0;
};
PlainChoice plain_choice(const ReplayedFigure& figure);

// The Google Benchmark name of the plain figure beside the replayed figure `name`.
std::string plain_figure_name(const std::string& name);

// Turns a timed entry of the plain figure (with the replay's fields already) into a
// calibration entry beside the replay whose run name is `replayed_run`.
void mark_plain_entry(nlohmann::json& entry, const std::string& replayed_run);

// The entry of a replayed figure without a plain one: `replayed` is one of the replay's
// entries.
nlohmann::json no_plain_entry(const nlohmann::json& replayed, const std::string& why);

}  // namespace harness::worker
