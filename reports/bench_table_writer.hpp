// bench_table_writer.hpp — benchmark results as OSU-style tables on the console: one table
// per pattern, op, sync mode, target mode, metric and rank count, a row per size, and the
// implementations that ran it side by side (a column group per reference backend:path and
// per MPI library, in the order they ran), each with its latency (µs) or bandwidth (MB/s),
// its ratio to the baseline (the first reference column, else the first column), and the
// RMA messages per iteration where they were observable (marked when they differ from what
// the pattern declares). Tables of figures on shared memory also read each figure against
// the run's hardware floor (pattern "floor": the cache-line round trip, memcpy and a
// two-copy handoff round trip by size). An MPI's figure also gets, in its own column group,
// the same loop timed in plain C with that MPI (entries with `calibration`,
// harness/worker/plain_figure.hpp) and the replay's ratio to it.
//
//   reports::write_bench_table(report.benchmarks, std::cout);
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

namespace reports {

// The pattern of the floor's entries (harness/worker/floor_bench.hpp).
inline constexpr const char* kFloorPatternName = "floor";

void write_bench_table(const nlohmann::json& benchmarks, std::ostream& out);

}  // namespace reports
