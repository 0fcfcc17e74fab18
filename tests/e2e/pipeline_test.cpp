// End-to-end: the run pipeline `run` and `bench` share (harness/cli/pipeline.hpp) — a stop
// by SIGINT writes the partial report (the case in flight `interrupted`, a bench keeping the
// rows it finished) and exits 4, a --report-dir that cannot be used ends the run before its
// first case with exit 3, the console says how far the run is — and the case-table
// contract, which rejects a bad script with exit 2 before any rank starts.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

using nlohmann::json;

// Starts rmabench, waits for its ranks to be running, sends SIGINT to the parent.
e2e::RunResult interrupt(const std::vector<std::string>& args) {
  auto bg = e2e::start(args);
  std::vector<pid_t> ranks;
  for (int i = 0; i < 1000 && ranks.size() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ranks = e2e::worker_pids(bg.pid);
  }
  EXPECT_EQ(ranks.size(), 2u);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // into the case's work
  ::kill(bg.pid, SIGINT);
  return e2e::finish(bg, 60);
}

void expect_interrupted_report(const e2e::RunResult& r, const std::string& dir) {
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;  // stopped by a signal
  ASSERT_TRUE(std::filesystem::exists(dir + "/report.json")) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 1u) << report.dump(2);
  EXPECT_EQ(report["cases"][0]["status"], "interrupted");
  EXPECT_EQ(report["complete"], false);
  EXPECT_EQ(report["summary"]["interrupted"], 1);
  EXPECT_TRUE(std::filesystem::exists(dir + "/junit.xml"));
  EXPECT_EQ(e2e::schema_errors(dir + "/report.json"), "");
  // Neither passed nor failed; the "N passed, N failed" prefix stays for CI parsers.
  EXPECT_NE(r.out.find("0 passed, 0 failed, 1 interrupted"), std::string::npos) << r.out;
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty()) << "rank processes left behind";
  EXPECT_TRUE(e2e::leftover_segments(r.pid).empty()) << "shared segments left behind";
}

TEST(Pipeline, RunStopsOnSigintWithAPartialReport) {
  const std::string dir = e2e::temp_dir("sigint-run");
  const auto r = interrupt({"run", "tests/e2e/scripts/wait_forever.lua", "--report-dir", dir});
  expect_interrupted_report(r, dir);
  EXPECT_LT(r.seconds, 20);
}

TEST(Pipeline, BenchStopsOnSigintWithAPartialReport) {
  const std::string dir = e2e::temp_dir("sigint-bench");
  // A sweep far longer than the test: only the signal ends it.
  const auto r =
      interrupt({"bench", "lua_scripts/bench/latency.lua", "--sizes", "1:4M", "--sync",
                 "lock,flush,lock_all,pscw,fence", "--repetitions", "50", "--report-dir", dir});
  expect_interrupted_report(r, dir);
  EXPECT_LT(r.seconds, 20);
}

// Whether `text` shows up in what a background run printed so far, within `seconds`.
bool printed(const e2e::Background& bg, const std::string& text, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    std::string out(1 << 16, '\0');
    const ssize_t n = ::pread(bg.out_fd, out.data(), out.size(), 0);
    if (n > 0 && out.substr(0, static_cast<std::size_t>(n)).find(text) != std::string::npos)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// The figures come back as each row is measured: a stop after the first row keeps it, in the
// report and on the console, with the case itself `interrupted`.
TEST(Pipeline, BenchStoppedMidSweepKeepsTheRowsItFinished) {
  const std::string dir = e2e::temp_dir("sigint-bench-rows");
  auto bg = e2e::start({"bench", "tests/e2e/scripts/bench_stuck_after_one_size.lua", "--sizes",
                        "1,2", "--min-time", "0.001", "--no-floor", "-v", "--report-dir", dir});
  // Rank 0 logs "stuck" in the second size's recording run: the first row is measured.
  const bool stuck = printed(bg, "rank 0: stuck", 60);
  ::kill(bg.pid, SIGINT);
  const auto r = e2e::finish(bg, 60);
  ASSERT_TRUE(stuck) << r.out;
  EXPECT_EQ(r.exit_code, 4) << r.out;
  const json report = e2e::read_json(dir + "/report.json");
  EXPECT_EQ(report["complete"], false);
  ASSERT_EQ(report["cases"].size(), 1u) << report.dump(2);
  EXPECT_EQ(report["cases"][0]["status"], "interrupted");
  ASSERT_FALSE(report["benchmarks"].empty()) << report.dump(2);
  for (const auto& b : report["benchmarks"]) EXPECT_EQ(b["size"], 1) << b.dump(2);
  EXPECT_EQ(e2e::schema_errors(dir + "/report.json"), "");
  // The table has the row; the summary and the note name the case that was stopped.
  EXPECT_NE(r.out.find("# bench_stuck_after_one_size"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 passed, 0 failed, 1 interrupted"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("# bench_stuck_after_one_size[shm,am,np=2] ended interrupted"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty()) << "rank processes left behind";
  EXPECT_TRUE(e2e::leftover_segments(r.pid).empty()) << "shared segments left behind";
}

// A --report-dir that cannot hold the records is refused before the first case (exit 3),
// naming the directory and why; run and bench alike.
TEST(Pipeline, AnUnusableReportDirStopsTheRunBeforeItsFirstCase) {
  const std::string dir = e2e::temp_dir("report-dir-file");
  const std::string file = dir + "/a_file";
  std::ofstream(file) << "not a directory";
  const std::vector<std::pair<std::string, std::string>> unusable = {
      {file, file + ": is not a directory"}, {"/proc/rmabench-nope", "/proc/rmabench-nope"}};
  for (const auto& [where, says] : unusable) {
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"run", "lua_scripts/examples/hello.lua"},
          std::vector<std::string>{"bench", "lua_scripts/bench/latency.lua", "--no-floor"}}) {
      std::vector<std::string> args = command;
      args.insert(args.end(), {"--report-dir", where});
      const auto r = e2e::run(args);
      EXPECT_EQ(r.exit_code, 3) << command[0] << " " << where << ": " << r.out << r.err;
      EXPECT_NE(r.err.find("--report-dir"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
      EXPECT_EQ(r.out.find("[1/"), std::string::npos) << "a case ran: " << r.out;
      EXPECT_LT(r.seconds, 10) << command[0] << " " << where;
    }
  }
}

TEST(Pipeline, CaseLinesSayHowFarTheRunIs) {
  const auto two = e2e::run({"run", "suites/quick.lua", "--filter", "passive/lock_put_unlock["});
  ASSERT_EQ(two.exit_code, 0) << two.out << two.err;
  // Not a terminal: plain lines, each with its case number and the run's elapsed time.
  EXPECT_NE(two.out.find("[1/"), std::string::npos) << two.out;
  EXPECT_EQ(two.out.find('\r'), std::string::npos) << "no status line in a log";
}

// The four mistakes of issue 11: each is an error naming the file, the field and what was
// expected, at run, list and describe alike, before any rank starts.
struct BadTable {
  std::string script;
  std::string message;
};

class CaseTableContract : public ::testing::TestWithParam<BadTable> {};

TEST_P(CaseTableContract, IsAUsageErrorNamingFileFieldAndExpectation) {
  const BadTable& b = GetParam();
  const std::string path = "tests/e2e/scripts/case_table/" + b.script;
  for (const char* command : {"run", "list", "describe"}) {
    const std::string dir = e2e::temp_dir("contract");
    std::vector<std::string> args = {command, path};
    if (std::string(command) == "run") args.insert(args.end(), {"--report-dir", dir + "/r"});
    const auto r = e2e::run(args);
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.out << r.err;
    EXPECT_NE(r.err.find(path + b.message), std::string::npos) << command << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir + "/r")) << "no report: nothing ran";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Issue11, CaseTableContract,
    ::testing::Values(
        BadTable{"misspelt_hook.lua",
                 ":5: case table: unknown field 'chekc' (did you mean 'check'?)"},
        BadTable{"unknown_field.lua",
                 ":4: case table: unknown field 'iteration' (did you mean 'iterations'?)"},
        BadTable{"ranks_string.lua",
                 ":3: case table: field 'ranks': expected a positive integer, got string "
                 "\"four\""},
        BadTable{"messages_float.lua",
                 ":5: case table: field 'messages': entry 'total': expected an integer count, "
                 "got number 2.5"}),
    [](const auto& p) { return p.param.script.substr(0, p.param.script.find('.')); });

TEST(CaseTableContract, AMessagesFunctionReturningANonIntegerErrorsTheCase) {
  const std::string dir = e2e::temp_dir("contract-fn");
  const auto r = e2e::run(
      {"run", "tests/e2e/scripts/case_table/messages_function_float.lua", "--report-dir", dir});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const json c = e2e::read_json(dir + "/report.json")["cases"][0];
  EXPECT_EQ(c["status"], "error");
  ASSERT_FALSE(c["failures"].empty()) << c.dump(2);
  EXPECT_NE(c["failures"][0]["message"].get<std::string>().find(
                "field 'messages': entry 'total': expected an integer count, got number 0.5"),
            std::string::npos)
      << c.dump(2);
}

TEST(Names, ProgressIsSnakeCaseAndTheOldSpellingStillWorks) {
  for (const char* spelling : {"sync_only", "sync-only"}) {
    const auto r = e2e::run({"list", "suites/quick.lua", "--progress", spelling});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("progress=sync_only]"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("sync-only"), std::string::npos) << r.out;
  }
  const auto bad = e2e::run({"list", "suites/quick.lua", "--progress", "sync"});
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(Names, DescribeAndReportsUseTheFileStem) {
  const auto d = e2e::run({"describe", "lua_scripts/passive/lock_put_unlock.lua"});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_EQ(d.out.rfind("passive/lock_put_unlock (", 0), 0u) << d.out;
  const std::string dir = e2e::temp_dir("stem");
  const auto r = e2e::run({"run", "lua_scripts/passive/lock_put_unlock.lua", "--report-dir", dir});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(e2e::read_json(dir + "/report.json")["cases"][0]["name"], "passive/lock_put_unlock");
}

}  // namespace
