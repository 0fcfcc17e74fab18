// mpi_calibration.hpp — the plain-C figure beside each MPI's replayed one in `rmabench bench
// --impl`: after an MPI's cases, a case `calibration[impl=<spelling>]` runs that MPI's
// rmabench-calibrate-<mpi> (harness/mpi/mpi_calibrate.c: the same op and synchronization, or
// the same send/recv round trip, in a C loop, no harness) through the MPI's launcher, as its
// worker is run, once per figure the MPI's cases timed. Each result is a Google Benchmark entry
// like the replayed one, with `calibration: "plain_c"`, `replayed` (the run name it calibrates),
// `replayed_impl` (the replay's `impl`) and `impl` "<that> plain C"; a figure the program cannot
// time (another pattern, a target mode other than wait, a failed launch) gets an entry with
// `error_occurred` and the reason, never a time of 0.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "launcher/launcher.hpp"
#include "mpi/mpi_launch.hpp"
#include "suite/case_spec.hpp"

namespace harness::mpi {

// The calibration case of one MPI, run after that MPI's cases (`like`: one of them).
suite::CaseSpec calibration_case(const suite::CaseSpec& like);

// A replayed entry's figure as the calibration program's arguments (--op put --sync lock
// --size 8 --flavor allocate; --pattern pingpong --size 8), or the reason it has no plain-C
// counterpart.
struct CalibrationConfig {
  std::vector<std::string> args;
  std::string why_not;  // "" when args hold
};
CalibrationConfig calibration_config(const nlohmann::json& replayed);

// The entries of one calibrated figure: from the program's output line
// ({"iterations": N, "real_time_ns": [...]}), one `iteration` entry per repetition plus, with
// several, mean/median/stddev/min/max aggregates; or, when `why_not` is set or the line does
// not parse, one entry with error_occurred and the reason. Named after the replayed run name,
// `/plain_c` before its `/min_time:`.
nlohmann::json calibration_entries(const nlohmann::json& replayed, const std::string& case_id,
                                   const std::string& output_line, const std::string& why_not);

// A figure an MPI's case timed: its entry, and the case's progress mode (the thread level
// and environment the calibration gets, as the worker got them).
struct Replayed {
  nlohmann::json entry;
  rma::ProgressMode progress = rma::ProgressMode::calls;
};

// Runs the calibration case: every distinct replayed figure (by run name), each in a launch
// of its own, so a crash costs one figure.
launcher::CaseOutcome run_calibration(const suite::CaseSpec& spec, const mpi::MpiLaunch& mpi,
                                      const std::vector<Replayed>& replayed);

}  // namespace harness::mpi
