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

// Reads one CaseResult through the report reader (its checks and its error messages).
CaseResult case_from(const json& c, const fs::path& p) {
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
              {"benchmarks", json::array()},
              {"summary", {{"passed", 0}, {"failed", 0}, {"skipped", 0}, {"duration_s", 0}}}};
  try {
    return report_from_json(doc).cases.at(0);
  } catch (const std::runtime_error& e) {
    fail(p, e.what());
  }
}

// The rows recorded for a case that has no record of its own, in order; a last line torn by
// the kill that ended the run is dropped, since it was never fsync'd whole.
std::vector<json> read_rows(const fs::path& p) {
  std::vector<json> rows;
  std::ifstream in(p, std::ios::binary);
  for (std::string line; std::getline(in, line);) {
    const json entries = json::parse(line, nullptr, false);
    if (!entries.is_array()) continue;
    for (const auto& e : entries)
      if (e.is_object()) rows.push_back(e);
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

Report read_run_records(const fs::path& dir) {
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
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const fs::path rec = dir / "cases" / record_name(k, "json");
    std::error_code ec;
    if (fs::is_regular_file(rec, ec)) {
      const json j = read_json_file(rec);
      if (!j.is_object() || !j.contains("case")) fail(rec, "has no field 'case'");
      r.cases.push_back(case_from(j["case"], rec));
      if (r.cases.back().interrupted()) complete = false;
      if (j.contains("benchmarks") && j["benchmarks"].is_array()) {
        for (const auto& b : j["benchmarks"]) r.benchmarks.push_back(b);
      }
      if (j.contains("elapsed_s") && j["elapsed_s"].is_number()) {
        elapsed = std::max(elapsed, j["elapsed_s"].get<double>());
      }
      continue;
    }
    complete = false;
    if (fs::exists(dir / "cases" / record_name(k, "started"), ec)) {
      // Started, never finished: the run died while it ran.
      CaseResult c = case_from(expected[k], run_path);
      c.status = Verdict::interrupted;
      c.reason = "the run ended while this case ran (no result was recorded)";
      const std::vector<json> rows = read_rows(dir / "cases" / record_name(k, "rows"));
      // Kept without a claim about the rest: the kill may have come after the last row.
      if (!rows.empty())
        c.reason += "; the benchmark entries it had measured are kept (" +
                    std::to_string(rows.size()) + ")";
      for (const auto& b : rows) r.benchmarks.push_back(b);
      r.cases.push_back(std::move(c));
    }
  }
  r.complete = complete;
  r.summary.duration_s = elapsed;
  r.finish();
  return r;
}

}  // namespace reports
