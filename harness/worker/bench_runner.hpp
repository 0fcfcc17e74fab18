// bench_runner.hpp — a benchmark case in one rank. For each size and sync mode the script
// takes, the script's setup runs, its run hook is executed once while being recorded, and the
// recorded op program is replayed under the benchmark loop (bench_loop.hpp): rank 0 (the
// origin) times it, the other ranks replay their own programs in lockstep (or, for a passive
// target with nothing to do, wait in the closing barrier — or compute without calling the
// library, for the truly-passive variant). Messages per iteration are measured over every
// batch, summed over ranks, where the implementation can observe them. Each entry names the
// implementation that ran it (`impl`). An MPI's figure is led together with the same pattern
// in plain C against that MPI, their repetitions interleaved (plain_figure.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include "impl/implementation.hpp"
#include "launcher/control.hpp"
#include "suite/case_spec.hpp"
#include "worker/bench_loop.hpp"
#include "worker/state_board.hpp"

namespace harness::worker {

nlohmann::json run_bench_script(const suite::CaseSpec& spec, impl::Implementation& impl,
                                launcher::ControlChannel& ctrl, StateBoard& board);

}  // namespace harness::worker
