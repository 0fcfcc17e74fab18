// bench_table_writer.hpp — benchmark results as OSU-style tables on the console: one table
// per pattern, sync mode, backend:path and target mode; a row per size with the latency (µs)
// or bandwidth (MB/s), and the RMA messages per iteration (marked when they differ from what
// the pattern declares).
//
//   reports::write_bench_table(report.benchmarks, std::cout);
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

namespace reports {

void write_bench_table(const nlohmann::json& benchmarks, std::ostream& out);

}  // namespace reports
