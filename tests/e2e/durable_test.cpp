// End-to-end: durable results (issue 14, part 1). A parent killed with SIGKILL in the middle
// of a suite leaves its run and case records; `rmabench report DIR` rebuilds a schema-valid,
// incomplete report holding every case whose console line was printed before the kill, with
// the same verdict, and the case in flight `interrupted`. Also: a baseline that is incomplete
// is refused by the gate.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

using nlohmann::json;

std::string output_so_far(int fd) {
  std::string s;
  char buf[4096];
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(fd, buf, sizeof buf, at);
    if (n <= 0) break;
    s.append(buf, static_cast<std::size_t>(n));
    at += n;
  }
  return s;
}

// id -> verdict word of every case line ("[k/N m:ss] WORD id ...") in a console log.
std::map<std::string, std::string> case_lines(const std::string& out) {
  std::map<std::string, std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '[') continue;
    const auto close = line.find("] ");
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    std::string word, id;
    if (rest >> word >> id) lines[id] = word;
  }
  return lines;
}

std::string verdict_word(const json& c) {
  const std::string s = c["status"];
  if (c["expected"] == "deadlock" && s == "deadlock") return "PASS";
  if (c["expected"] == "deadlock" && s == "pass") return "FAIL";
  if (s == "pass") return "PASS";
  std::string w = s;
  for (auto& ch : w) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return w;
}

TEST(Durable, KillDashNineThenReportRebuildsWhatFinished) {
  const std::string dir = e2e::temp_dir("kill9");
  auto bg = e2e::start({"run", "suites/quick.lua", "--report-dir", dir});
  // Kill once a few cases finished and the next one is running.
  std::string seen;
  for (int i = 0; i < 3000 && case_lines(seen).size() < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    seen = output_so_far(bg.out_fd);
  }
  ASSERT_GE(case_lines(seen).size(), 3u) << seen;
  ::kill(bg.pid, SIGKILL);
  const auto killed = e2e::finish(bg, 60);
  EXPECT_EQ(killed.exit_code, 128 + SIGKILL);
  EXPECT_FALSE(std::filesystem::exists(dir + "/report.json")) << "written only at the end";
  // The ranks die with their parent (PR_SET_PDEATHSIG).
  for (int i = 0; i < 200 && !e2e::leftover_ranks(killed.pid).empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(e2e::leftover_ranks(killed.pid).empty()) << "rank processes left behind";

  const auto rebuilt = e2e::run({"report", dir, "--format", "json,junit,md,html"});
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.out << rebuilt.err;
  EXPECT_NE(rebuilt.out.find("incomplete run"), std::string::npos) << rebuilt.out;
  for (const char* f : {"report.json", "junit.xml", "report.md", "report.html"}) {
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + f)) << f;
  }
  EXPECT_EQ(e2e::schema_errors(dir + "/report.json"), "");
  const json report = e2e::read_json(dir + "/report.json");
  EXPECT_EQ(report["complete"], false);
  const auto printed = case_lines(killed.out);
  std::map<std::string, json> in_report;
  for (const auto& c : report["cases"]) in_report[c["id"]] = c;
  for (const auto& [id, word] : printed) {
    ASSERT_TRUE(in_report.count(id)) << id << " was printed but is not in the report";
    EXPECT_EQ(verdict_word(in_report[id]), word) << id;
  }
  // At most one case more than the console showed: the one in flight, interrupted, or one
  // that finished just before the kill (its record is written before its console line).
  const std::size_t extra = report["cases"].size() - printed.size();
  EXPECT_LE(extra, 1u) << report.dump(1);
  const bool in_flight = extra == 1 && report["cases"].back()["status"] == "interrupted";
  EXPECT_EQ(report["summary"]["interrupted"], in_flight ? 1 : 0);
  EXPECT_EQ(report["summary"]["failed"], 0) << "an interrupted run is no failure";

  // The next run's sweep removes the segments the killed run's ranks left.
  const auto next = e2e::run({"run", "suites/quick.lua", "--filter", "passive/lock_put_unlock["});
  EXPECT_EQ(next.exit_code, 0) << next.out << next.err;
  EXPECT_TRUE(e2e::leftover_segments(killed.pid).empty()) << "segments of the killed run";

  // Incomplete: no baseline.
  const auto gate = e2e::run({"gate", dir + "/report.json", "--baseline", dir + "/report.json"});
  EXPECT_EQ(gate.exit_code, 2) << gate.out << gate.err;
  EXPECT_NE(gate.err.find("incomplete"), std::string::npos) << gate.err;
}

// A benchmark whose parent is killed halfway through its sweep: the rows measured before the
// kill were recorded as they came, and the rebuilt report has them with the case interrupted.
TEST(Durable, KillDashNineMidSweepKeepsTheRowsItFinished) {
  const std::string dir = e2e::temp_dir("kill9-bench-rows");
  auto bg = e2e::start({"bench", "tests/e2e/scripts/bench_stuck_after_one_size.lua", "--sizes",
                        "1,2", "--min-time", "0.001", "--no-floor", "-v", "--report-dir", dir});
  // Rank 0 logs "stuck" in the second size's recording run: the first row is measured.
  std::string seen;
  for (int i = 0; i < 6000 && seen.find("rank 0: stuck") == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    seen = output_so_far(bg.out_fd);
  }
  ASSERT_NE(seen.find("rank 0: stuck"), std::string::npos) << seen;
  ::kill(bg.pid, SIGKILL);
  const auto killed = e2e::finish(bg, 60);
  EXPECT_EQ(killed.exit_code, 128 + SIGKILL);
  for (int i = 0; i < 200 && !e2e::leftover_ranks(killed.pid).empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(e2e::leftover_ranks(killed.pid).empty()) << "rank processes left behind";

  const auto rebuilt = e2e::run({"report", dir});
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.out << rebuilt.err;
  EXPECT_EQ(e2e::schema_errors(dir + "/report.json"), "");
  const json report = e2e::read_json(dir + "/report.json");
  EXPECT_EQ(report["complete"], false);
  ASSERT_EQ(report["cases"].size(), 1u) << report.dump(1);
  EXPECT_EQ(report["cases"][0]["status"], "interrupted");
  ASSERT_FALSE(report["benchmarks"].empty()) << report.dump(1);
  for (const auto& b : report["benchmarks"]) EXPECT_EQ(b["size"], 1) << b.dump(1);
  EXPECT_NE(report["cases"][0]["reason"].get<std::string>().find(
                "the benchmark entries it had measured are kept (" +
                std::to_string(report["benchmarks"].size()) + ")"),
            std::string::npos)
      << report["cases"][0].dump(1);
}

TEST(Durable, ReportOfADirectoryWithoutRecordsIsAUsageError) {
  const std::string dir = e2e::temp_dir("norecords");
  std::filesystem::create_directories(dir);
  const auto r = e2e::run({"report", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("run.json"), std::string::npos) << r.err;
}

TEST(Durable, FinishedRunIsCompleteAndRebuildsTheSame) {
  const std::string dir = e2e::temp_dir("complete");
  const auto r =
      e2e::run({"run", "suites/quick.lua", "--filter", "lock_put_unlock[", "--report-dir", dir});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  json first = e2e::read_json(dir + "/report.json");
  EXPECT_EQ(first["complete"], true);
  const auto rebuilt = e2e::run({"report", dir});
  ASSERT_EQ(rebuilt.exit_code, 0) << rebuilt.out << rebuilt.err;
  json second = e2e::read_json(dir + "/report.json");
  // The same cases and verdicts (the run's own duration is measured, a rebuild's recorded).
  first["summary"].erase("duration_s");
  second["summary"].erase("duration_s");
  EXPECT_EQ(first["cases"], second["cases"]);
  EXPECT_EQ(first["summary"], second["summary"]);
}

}  // namespace
