// bench_runner.hpp — a benchmark case in one rank. For each size and sync mode the script
// takes, the script's setup runs, its run hook is executed once while being recorded, and the
// recorded op program is replayed under Google Benchmark: rank 0 (the origin) registers the
// benchmark with manual timing and, before each batch Google Benchmark asks for, tells the
// other ranks how many iterations follow; they replay their own programs in lockstep (or, for
// a passive target with nothing to do, wait in the closing barrier — or compute without
// calling the library, for the truly-passive variant). Messages per iteration are measured
// over every batch, summed over ranks, where the implementation can observe them.
#pragma once

#include <atomic>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "impl/implementation.hpp"
#include "launcher/control.hpp"
#include "suite/case_spec.hpp"
#include "worker/state_board.hpp"

namespace harness::worker {

// Batches a computing target may stop: set by the worker's control thread when the parent
// relays the origin's "batch done".
std::atomic<std::uint64_t>& compute_stop_batch();

// Google Benchmark's JSON with its bare nan/inf values (not JSON) turned into null.
std::string json_without_nan(const std::string& text);

nlohmann::json run_bench_script(const suite::CaseSpec& spec, impl::Implementation& impl,
                                launcher::ControlChannel& ctrl, StateBoard& board);

}  // namespace harness::worker
