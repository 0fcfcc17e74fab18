// The run and case records (run_record.hpp): durable writes, and the report they rebuild.
#include "reports/run_record.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "reports/report_dir.hpp"

namespace reports {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

[[noreturn]] void fail(const fs::path& p, const std::string& what) {
  throw std::runtime_error("run record " + p.string() + ": " + what);
}

void fsync_path(const fs::path& p, int flags) {
  const int fd = ::open(p.c_str(), flags | O_CLOEXEC);
  if (fd < 0) fail(p, std::string("cannot open: ") + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) fail(p, std::string("cannot fsync: ") + std::strerror(err));
}

// temp file, fsync, rename, fsync of the directory: after a crash the target is either the
// old file or the whole new one, and a record that was reported written stays.
void write_durably(const fs::path& target, const std::string& text) {
  fs::path tmp = target;
  tmp += ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) fail(tmp, std::string("cannot be created: ") + std::strerror(errno));
    out << text;
    out.close();
    if (!out) {
      const int err = errno;
      std::error_code ignored;
      fs::remove(tmp, ignored);
      fail(tmp, std::string("cannot write: ") + std::strerror(err));
    }
  }
  fsync_path(tmp, O_RDONLY);
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    fail(target, "cannot rename " + tmp.string() + ": " + ec.message());
  }
  fsync_path(target.parent_path(), O_RDONLY | O_DIRECTORY);
}

// Rank output may hold any bytes: invalid UTF-8 becomes U+FFFD, as in report.json.
std::string text(const json& j) {
  return j.dump(1, ' ', false, json::error_handler_t::replace);
}

std::string record_name(std::size_t index, const char* ext) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04zu.%s", index, ext);
  return buf;
}

json read_json_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) fail(p, std::string("cannot be read: ") + std::strerror(errno));
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    fail(p, std::string("is not JSON: ") + e.what());
  }
}

// A case and benchmark entries read through the report reader (its checks and messages);
// `label` replaces the reader's path of the case ("cases[0]") with where it really is
// ("cases[5]" in run.json, "case" in a case record).
std::pair<CaseResult, json> read_through_model(const json& c, const json& benchmarks,
                                               const fs::path& p, const std::string& label) {
  json doc = {{"schema", schema_id},
              {"context",
               {{"rmabench_version", ""},
                {"git_revision", ""},
                {"host", ""},
                {"command", ""},
                {"started_at", ""},
                {"topology", json::object()},
                {"options", json::object()}}},
              {"cases", json::array({c})},
              {"benchmarks", benchmarks},
              {"summary", {{"passed", 0}, {"failed", 0}, {"skipped", 0}, {"duration_s", 0}}}};
  try {
    Report r = report_from_json(doc);
    return {r.cases.at(0), r.benchmarks};
  } catch (const std::runtime_error& e) {
    std::string what = e.what();
    if (const auto at = what.find("cases[0]"); at != std::string::npos) what.replace(at, 8, label);
    fail(p, what);
  }
}

CaseResult case_from(const json& c, const fs::path& p, const std::string& label) {
  return read_through_model(c, json::array(), p, label).first;
}

// The rows recorded for a case that has no record of its own, in order. A last line without
// its newline was torn by the kill that ended the run (never fsync'd whole) and is dropped;
// any other line that is not a list of entries is damage, told in `damaged`.
json read_rows(const fs::path& p, std::vector<std::string>& damaged) {
  json rows = json::array();
  std::ifstream in(p, std::ios::binary);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (in.eof()) break;  // no newline after it: the torn last line
    const json entries = json::parse(line, nullptr, false);
    bool ok = entries.is_array();
    for (const auto& e : entries) ok = ok && e.is_object();
    if (!ok) {
      damaged.push_back(p.string() + ":" + std::to_string(n) +
                        ": not a JSON list of benchmark entries (line left out)");
      continue;
    }
    for (const auto& e : entries) rows.push_back(e);
  }
  return rows;
}

}  // namespace

void RunRecorder::begin(const RunContext& context, const std::vector<CaseResult>& expected) {
  const fs::path cases = dir_ / "cases";
  std::error_code ec;
  // create_directories says only "File exists" of a regular file in the way.
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec)) fail(dir_, "is not a directory");
  fs::create_directories(cases, ec);
  if (ec) fail(cases, "cannot be created: " + ec.message());
  // An earlier run's records in the same directory would be read as this run's.
  for (const auto& e : fs::directory_iterator(cases, ec)) {
    const std::string name = e.path().filename().string();
    // Every record name: four or more digits, then its kind (record_name).
    const auto digits = name.find_first_not_of("0123456789");
    if (digits != std::string::npos && digits >= 4 && name[digits] == '.') fs::remove(e.path(), ec);
  }
  // And its report files: until this run writes its own, they would pass for its result
  // (complete, all passed) to whoever reads the directory after a kill.
  remove_report_files(dir_);
  json list = json::array();
  for (const auto& c : expected) list.push_back(to_json(c));
  Report holder;
  holder.context = context;
  const json ctx = to_json(holder)["context"];
  write_durably(dir_ / "run.json",
                text(json{{"schema", run_record_schema_id}, {"context", ctx}, {"cases", list}}));
}

void RunRecorder::started(std::size_t index) {
  write_durably(dir_ / "cases" / record_name(index, "started"), "");
}

void RunRecorder::not_run(std::size_t index) {
  std::error_code ignored;
  fs::remove(dir_ / "cases" / record_name(index, "started"), ignored);
  fs::remove(dir_ / "cases" / record_name(index, "rows"), ignored);
}

void RunRecorder::figures(std::size_t index, const nlohmann::json& entries) {
  // Appended, not rewritten: a sweep's rows come one configuration at a time, and the
  // file's earlier lines are never touched again. One line per call, so a kill in the
  // middle of a write tears only that line (read_rows drops it).
  const fs::path p = dir_ / "cases" / record_name(index, "rows");
  const std::string line = entries.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  std::error_code ec;
  const bool created = !fs::exists(p, ec);
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) fail(p, std::string("cannot be opened: ") + std::strerror(errno));
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      fail(p, std::string("cannot write: ") + std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  const int rc = ::fdatasync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) fail(p, std::string("cannot fsync: ") + std::strerror(err));
  // A new file's name is durable only with its directory's entry.
  if (created) fsync_path(p.parent_path(), O_RDONLY | O_DIRECTORY);
}

void RunRecorder::finished(std::size_t index, const CaseResult& result,
                           const nlohmann::json& benchmarks) {
  write_durably(dir_ / "cases" / record_name(index, "json"),
                text(json{{"index", index},
                          {"elapsed_s", elapsed_s_},
                          {"case", to_json(result)},
                          {"benchmarks", benchmarks.is_array() ? benchmarks : json::array()}}));
  // The record holds them now.
  std::error_code ignored;
  fs::remove(dir_ / "cases" / record_name(index, "rows"), ignored);
}

bool has_run_records(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "run.json", ec);
}

Report read_run_records(const fs::path& dir, std::vector<std::string>* damaged) {
  const fs::path run_path = dir / "run.json";
  if (!has_run_records(dir)) fail(run_path, "is missing (not a run directory of this version)");
  const json run = read_json_file(run_path);
  if (!run.is_object() || run.value("schema", "") != run_record_schema_id) {
    fail(run_path, "has no schema '" + std::string(run_record_schema_id) + "'");
  }
  if (!run.contains("cases") || !run["cases"].is_array()) fail(run_path, "has no case list");
  Report r;
  {
    json doc = {{"schema", schema_id},
                {"context", run.value("context", json::object())},
                {"cases", json::array()},
                {"benchmarks", json::array()},
                {"summary", {{"passed", 0}, {"failed", 0}, {"skipped", 0}, {"duration_s", 0}}}};
    try {
      r.context = report_from_json(doc).context;
    } catch (const std::runtime_error& e) {
      fail(run_path, e.what());
    }
  }
  const json& expected = run["cases"];
  bool complete = true;
  double elapsed = 0;
  std::vector<std::string> ignored;
  std::vector<std::string>& damage = damaged ? *damaged : ignored;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const fs::path rec = dir / "cases" / record_name(k, "json");
    std::error_code ec;
    if (fs::exists(rec, ec)) {
      try {
        // Something else in the record's place (a directory) is damage, not a case in flight.
        if (!fs::is_regular_file(rec, ec)) fail(rec, "is not a file");
        const json j = read_json_file(rec);
        if (!j.is_object() || !j.contains("case")) fail(rec, "has no field 'case'");
        if (j.contains("elapsed_s") && !j["elapsed_s"].is_number())
          fail(rec, "field 'elapsed_s' must be a number");
        auto [c, benchmarks] =
            read_through_model(j["case"], j.value("benchmarks", json::array()), rec, "case");
        // A record copied or moved from another position would count one case twice.
        const std::string want =
            expected[k].is_object() ? expected[k].value("id", std::string()) : std::string();
        if (!want.empty() && c.id != want)
          fail(rec, "holds case " + c.id + ", not " + want + " (the run's case " +
                        std::to_string(k) + ")");
        if (c.interrupted()) complete = false;
        r.cases.push_back(std::move(c));
        for (auto& b : benchmarks) r.benchmarks.push_back(std::move(b));
        elapsed = std::max(elapsed, j.value("elapsed_s", 0.0));
        continue;
      } catch (const std::runtime_error& e) {
        if (!damaged) throw;
        // One damaged record does not cost the others: the case is told as having no
        // verdict, and the damage is named.
        damage.push_back(e.what());
        CaseResult c = case_from(expected[k], run_path, "cases[" + std::to_string(k) + "]");
        c.status = Verdict::interrupted;
        c.reason = "its record " + rec.filename().string() + " is damaged: the verdict is unknown";
        r.cases.push_back(std::move(c));
        complete = false;
        continue;
      }
    }
    complete = false;
    if (fs::exists(dir / "cases" / record_name(k, "started"), ec)) {
      // Started, never finished: the run died while it ran.
      CaseResult c = case_from(expected[k], run_path, "cases[" + std::to_string(k) + "]");
      c.status = Verdict::interrupted;
      c.reason = "the run ended while this case ran (no result was recorded)";
      const std::size_t before = damage.size();
      json rows = read_rows(dir / "cases" / record_name(k, "rows"), damage);
      if (damage.size() != before && !damaged) fail(dir / "cases", damage.back());
      try {
        rows = read_through_model(expected[k], rows, dir / "cases" / record_name(k, "rows"),
                                  "cases[" + std::to_string(k) + "]")
                   .second;
      } catch (const std::runtime_error& e) {
        if (!damaged) throw;
        damage.push_back(std::string(e.what()) + " (its rows left out)");
        rows = json::array();
      }
      // Kept without a claim about the rest: the kill may have come after the last row.
      if (!rows.empty())
        c.reason += "; the benchmark entries it had measured are kept (" +
                    std::to_string(rows.size()) + ")";
      for (auto& b : rows) r.benchmarks.push_back(std::move(b));
      r.cases.push_back(std::move(c));
    }
  }
  r.complete = complete;
  r.summary.duration_s = elapsed;
  r.finish();
  return r;
}

}  // namespace reports
