// floor_bench.hpp — the hardware floor of a run's shared-memory figures, measured in the same
// run by the same benchmark loop (bench_loop.hpp): a case of mode "floor" on two rank
// processes bound as every two-rank case is. Its benchmarks:
//
//   floor/cache_line_round_trip  rank 0 writes a flag in one cache line of a segment both
//                                ranks map, rank 1 answers in the same line: two cache-line
//                                handoffs between the two ranks' cores, the least a message
//                                and its reply (an am lock-put-unlock) can cost;
//   floor/queue_round_trip       an 8-byte packet each way through the shm transport's own
//                                receive queues in that segment, no engine on either side:
//                                the transport the am path's figures are read against;
//   floor/memcpy/<size>          rank 0 copies `size` bytes from its own memory into the
//                                segment (what a direct put of that size moves), for each
//                                size in CaseSpec::bench["sizes"];
//   floor/handoff/<size>         rank 0 copies `size` bytes from its own memory into the
//                                segment and raises a flag, rank 1 copies them out into its
//                                own memory and answers: a message of that size and its reply
//                                through shared memory with no protocol, two copies and the
//                                move between the cores (what an am put of the size is read
//                                against), for each size.
//
// The entries carry the same fields as a script's (pattern "floor", op the benchmark's name,
// backend "shm", path "floor") so the console table, the HTML plots and the gate read them.
// Each two-rank reference figure also gets its floor's round trip measured just before it,
// inside its own case: floor_round_trips on shm, raw_round_trip elsewhere.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "impl/implementation.hpp"
#include "launcher/control.hpp"
#include "reports/bench_table_writer.hpp"
#include "suite/case_spec.hpp"
#include "worker/state_board.hpp"

namespace harness::worker {

nlohmann::json run_floor_bench(const suite::CaseSpec& spec, impl::Implementation& impl,
                               launcher::ControlChannel& ctrl, StateBoard& board);

// The round trips a figure is read against, in microseconds.
struct FloorRoundTrips {
  double floor_us = 0;             // shm: one cache line both ways; elsewhere the raw send/recv
  std::optional<double> queue_us;  // shm: an 8-byte packet each way through its queue
};

// Both round trips alone, between ranks 0 and 1 of a running benchmark case, every rank
// calling it (ranks past 1 wait in the loop's barrier; `rmabench bench` asks for it in
// two-rank cases only), measured just before the figure they are read against. The
// hypervisor moves the two virtual cores of a guest between placements whose round trips
// differ several times over (0.05 and 0.4 us here), sometimes within one run: a floor
// measured only at the end of the run may judge a figure taken under the other placement.
// `tag` makes the segment's name unique within the case. Rank 0 gets the medians of the
// repetitions, the others zeros.
rma::Result<FloorRoundTrips> floor_round_trips(const suite::CaseSpec& spec,
                                               impl::Implementation& impl,
                                               launcher::ControlChannel& ctrl,
                                               const std::string& tag);

// The fabric figures' floor, measured the same way just before each of them: a raw
// send/recv round trip of 8 bytes between ranks 0 and 1 over the case's own transport (what
// bench/pingpong.lua measures as a case of its own). A separate case is a separate launch,
// and on this machine the tcp;ofi_rxm round trip moved between 15 and 24 us from one launch
// to the next, so a ratio across launches said little. Rank 0 gets the median in
// microseconds, the others 0.
rma::Result<FloorRoundTrips> raw_round_trip(const suite::CaseSpec& spec, impl::Implementation& impl,
                                            launcher::ControlChannel& ctrl);

}  // namespace harness::worker
