// reports/run_record.hpp — a run's results on disk as it goes, so a killed run loses nothing
// that finished: the run record `DIR/run.json` (context and the expected cases, written at
// the start), one record per case `DIR/cases/NNNN.json` written when it finishes, and an
// empty `DIR/cases/NNNN.started` when it starts. Every record is written to a temporary
// file, fsync'd and renamed (then the directory fsync'd), so a crash mid-write leaves the
// earlier records whole. A benchmark's rows are appended to `DIR/cases/NNNN.rows` (a JSON
// array per line, fsync'd) as they arrive, so a sweep killed halfway keeps the rows it
// finished. The report files (report_dir.hpp) are built from the records.
//
//   RunRecorder rec(dir);  rec.begin(context, expected);       // before the first case
//   rec.started(k);  rec.figures(k, entries);  ...;             // per case, k in expected
//   rec.finished(k, result, benchmarks);
//   Report r = read_run_records(dir);   // also after kill -9: the case started but without
//                                       // a record is `interrupted`, complete == false
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/model.hpp"

namespace reports {

inline constexpr std::string_view run_record_schema_id = "rmabench.run/v1";

class RunRecorder {
 public:
  explicit RunRecorder(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // Creates the directory, removes the case records and report files of an earlier run there,
  // writes run.json.
  // Throws std::runtime_error naming the path and the reason when the directory cannot hold
  // the records (a file in the way, no permission, a read-only file system).
  // `expected` holds every case of the run in order, as far as known before it runs (id,
  // script, ranks, ...): what a rebuilt report says of a case that has no record.
  void begin(const RunContext& context, const std::vector<CaseResult>& expected);
  void started(std::size_t index);
  // The case could not be carried out at all (it is left out of the report, not interrupted).
  void not_run(std::size_t index);
  // Benchmark entries of the case in flight, as the origin rank measured them; finished()
  // records them all again with the case, and removes these.
  void figures(std::size_t index, const nlohmann::json& entries);
  void finished(std::size_t index, const CaseResult& result, const nlohmann::json& benchmarks);
  // Seconds since begin(), kept in each record (a rebuilt report's duration).
  void set_elapsed(double seconds) { elapsed_s_ = seconds; }

 private:
  std::filesystem::path dir_;
  double elapsed_s_ = 0;
};

// Whether `dir` holds a run record.
bool has_run_records(const std::filesystem::path& dir);

// The report the records of `dir` make: every case with a record, in order; the first case
// started without a record becomes `interrupted` (its parent died while it ran), with the
// benchmark rows recorded for it; cases that never started are left out. `complete` is true
// only when every expected case has a record and none was interrupted. Throws
// std::runtime_error naming the file and what is wrong; with `damaged`, a damaged case record
// or rows line is told there instead (file[:line] and what) and the rest is rebuilt: that
// case without a verdict (`interrupted`, its reason naming the record), the report incomplete.
Report read_run_records(const std::filesystem::path& dir,
                        std::vector<std::string>* damaged = nullptr);

}  // namespace reports
