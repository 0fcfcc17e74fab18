// End-to-end: the launcher, the Lua runtime, reports and the command line, on the built
// rmabench. Each test runs real rank processes and checks exit codes, output, report contents
// and that nothing was left behind.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

using e2e::run;
using nlohmann::json;

void expect_nothing_left(pid_t parent) {
  EXPECT_TRUE(e2e::leftover_ranks(parent).empty()) << "rank processes left behind";
  EXPECT_TRUE(e2e::leftover_segments(parent).empty()) << "shared segments left behind";
}

const json& only_case(const json& report) {
  EXPECT_EQ(report["cases"].size(), 1u);
  return report["cases"][0];
}

std::string last_line(const std::string& s) {
  std::string t = s;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t.substr(t.rfind('\n') == std::string::npos ? 0 : t.rfind('\n') + 1);
}

TEST(Foundation, HelloOnFourRanksWritesValidReports) {
  const std::string dir = e2e::temp_dir("hello");
  auto r = run({"run", "lua_scripts/examples/hello.lua", "-n", "4", "--report-dir", dir});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(last_line(r.out), "1 passed, 0 failed");
  const json report = e2e::read_json(dir + "/report.json");
  const json& c = only_case(report);
  EXPECT_EQ(c["status"], "pass");
  EXPECT_EQ(c["ranks"], 4);
  EXPECT_EQ(report["schema"], "rmabench.report/v1");
  EXPECT_EQ(e2e::schema_errors(dir + "/report.json"), "");
  EXPECT_TRUE(std::filesystem::exists(dir + "/junit.xml"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/report.md"));
  expect_nothing_left(r.pid);
}

TEST(Foundation, ContextRecordsVersionRevisionHostTopologyOptions) {
  const std::string dir = e2e::temp_dir("context");
  auto r = run(
      {"run", "lua_scripts/examples/hello.lua", "-n", "2", "-o", "bytes=16", "--report-dir", dir});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json ctx = e2e::read_json(dir + "/report.json")["context"];
  EXPECT_FALSE(ctx["rmabench_version"].get<std::string>().empty());
  EXPECT_FALSE(ctx["git_revision"].get<std::string>().empty());
  EXPECT_FALSE(ctx["host"].get<std::string>().empty());
  EXPECT_GE(ctx["topology"]["cores"].get<int>(), 1);
  EXPECT_EQ(ctx["options"]["options"]["bytes"], "16");
}

struct ErrorCase {
  const char* script;
  int rank;           // a rank whose failure must be reported
  const char* where;  // file:line expected in that failure
};

void PrintTo(const ErrorCase& e, std::ostream* os) {
  *os << e.script;
}

class ScriptErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ScriptErrors, ReportedAsErrorWithFileLineAndRank) {
  const ErrorCase ec = GetParam();
  const std::string dir = e2e::temp_dir("err");
  auto r = run({"run", ec.script, "--report-dir", dir, "--timeout", "20"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const json c = only_case(e2e::read_json(dir + "/report.json"));
  EXPECT_EQ(c["status"], "error");
  bool found = false;
  for (const auto& f : c["failures"])
    if (f["rank"] == ec.rank && f["where"] == ec.where) found = true;
  EXPECT_TRUE(found) << c["failures"].dump(2);
  EXPECT_LT(r.seconds, 10);
  expect_nothing_left(r.pid);
}

std::string error_name(const ::testing::TestParamInfo<ErrorCase>& info) {
  std::string s = info.param.script;
  s = s.substr(s.rfind('/') + 1);
  return s.substr(0, s.find('.'));
}

INSTANTIATE_TEST_SUITE_P(Scripts, ScriptErrors,
                         ::testing::Values(ErrorCase{"tests/e2e/scripts/syntax_error.lua", 0,
                                                     "tests/e2e/scripts/syntax_error.lua:5"},
                                           ErrorCase{"tests/e2e/scripts/raise_on_rank1.lua", 1,
                                                     "tests/e2e/scripts/raise_on_rank1.lua:8"},
                                           ErrorCase{"tests/e2e/scripts/missing_function.lua", 1,
                                                     "tests/e2e/scripts/missing_function.lua:7"},
                                           ErrorCase{"tests/e2e/scripts/undeclared_option.lua", 1,
                                                     "tests/e2e/scripts/undeclared_option.lua:7"},
                                           ErrorCase{"tests/e2e/scripts/metric_not_finite.lua", 1,
                                                     "tests/e2e/scripts/metric_not_finite.lua:8"}),
                         error_name);

TEST(Foundation, OsExitIsACrashWithItsCode) {
  const std::string dir = e2e::temp_dir("exit");
  auto r = run({"run", "tests/e2e/scripts/exit_mid_run.lua", "--report-dir", dir});
  EXPECT_EQ(r.exit_code, 1);
  const json c = only_case(e2e::read_json(dir + "/report.json"));
  EXPECT_EQ(c["status"], "crash");
  EXPECT_NE(c["reason"].get<std::string>().find("rank 1 exited with code 3"), std::string::npos)
      << c.dump(2);
  EXPECT_LT(c["duration_s"].get<double>(), 2.0);
  expect_nothing_left(r.pid);
}

// The pids of a two-rank run's ranks, once both exist and have had time to reach `run`
// (empty if they never appeared).
std::vector<pid_t> two_ranks_in_run(const e2e::Background& bg) {
  std::vector<pid_t> ranks;
  for (int i = 0; i < 500 && ranks.size() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ranks = e2e::worker_pids(bg.pid);
  }
  if (ranks.size() != 2) return {};
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  return ranks;
}

TEST(Foundation, ACrashBeforeAStopIsStillACrash) {
  // A rank dies; while its peer gets its grace to report (it computes and never will), the
  // run is stopped (SIGINT). The case's verdict is the crash that came first, and the run
  // still ends as stopped (exit 4).
  const std::string dir = e2e::temp_dir("crashstop");
  auto bg = e2e::start({"run", "tests/e2e/scripts/spin_forever.lua", "--report-dir", dir});
  const std::vector<pid_t> ranks = two_ranks_in_run(bg);
  ASSERT_EQ(ranks.size(), 2u);
  // Whichever rank this is, the other one is spinning: no report comes from it.
  ::kill(ranks[1], SIGKILL);
  // Long enough for the parent to see the death; the crash grace (1.5 s) is still running.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ::kill(bg.pid, SIGINT);
  auto r = e2e::finish(bg, 30);
  EXPECT_EQ(r.exit_code, 4) << r.out;
  const json c = only_case(e2e::read_json(dir + "/report.json"));
  EXPECT_EQ(c["status"], "crash") << c.dump(2);
  EXPECT_NE(c["reason"].get<std::string>().find("was killed by SIGKILL"), std::string::npos)
      << c.dump(2);
  expect_nothing_left(r.pid);
}

TEST(Foundation, RankKilledFromOutsideIsACrashWithTheSignal) {
  const std::string dir = e2e::temp_dir("kill");
  auto bg = e2e::start({"run", "tests/e2e/scripts/wait_forever.lua", "--report-dir", dir});
  const std::vector<pid_t> ranks = two_ranks_in_run(bg);
  ASSERT_EQ(ranks.size(), 2u);
  const auto t0 = std::chrono::steady_clock::now();
  ::kill(ranks[0], SIGKILL);
  auto r = e2e::finish(bg, 30);
  const double after_kill =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_LT(after_kill, 2.0);
  const json c = only_case(e2e::read_json(dir + "/report.json"));
  EXPECT_EQ(c["status"], "crash");
  EXPECT_NE(c["reason"].get<std::string>().find("SIGKILL"), std::string::npos) << c.dump(2);
  expect_nothing_left(r.pid);
}

// A rank killed in the middle of an epoch on shm: the survivor's wait does not hang until
// the deadline, it ends with PROC_FAILED naming the dead rank, on both paths.
class KilledMidEpoch : public ::testing::TestWithParam<const char*> {};

TEST_P(KilledMidEpoch, SurvivorGetsProcFailedNamingTheDeadRank) {
  const std::string path = GetParam();
  const std::string dir = e2e::temp_dir("shm-kill-" + path);
  auto bg = e2e::start({"run", "tests/e2e/scripts/epochs_forever.lua", "--path", path, "--timeout",
                        "60", "--report-dir", dir});
  std::vector<pid_t> ranks;
  for (int i = 0; i < 1000 && ranks.size() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ranks = e2e::worker_pids(bg.pid);
  }
  ASSERT_EQ(ranks.size(), 2u);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // well into the epochs
  ::kill(ranks[1], SIGKILL);
  auto r = e2e::finish(bg, 90);
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const json c = only_case(e2e::read_json(dir + "/report.json"));
  EXPECT_EQ(c["status"], "crash") << c.dump(2);
  // The survivor's own error, not the launcher stopping it at the deadline.
  int dead = -1;
  for (const auto& f : c["failures"])
    if (f["where"] == "launcher") dead = f["rank"];
  ASSERT_GE(dead, 0) << c.dump(2);
  bool named = false;
  for (const auto& f : c["failures"])
    if (f["rank"] != dead) {
      const std::string m = f["message"];
      EXPECT_NE(m.find("PROC_FAILED"), std::string::npos) << m;
      EXPECT_NE(m.find("rank " + std::to_string(dead) + " (pid " + std::to_string(ranks[1]) +
                       ") has exited"),
                std::string::npos)
          << m;
      named = true;
    }
  EXPECT_TRUE(named) << c.dump(2);
  EXPECT_LT(c["duration_s"].get<double>(), 60.0) << c.dump(2);
  expect_nothing_left(r.pid);
}

INSTANTIATE_TEST_SUITE_P(Shm, KilledMidEpoch, ::testing::Values("am", "direct"));

TEST(Foundation, RecvNobodySendsIsADeadlockWithRankStates) {
  const std::string dir = e2e::temp_dir("deadlock");
  auto r = run(
      {"run", "tests/e2e/scripts/recv_nobody_sends.lua", "--timeout", "2", "--report-dir", dir});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_LT(r.seconds, 2 + 5);
  const json c = only_case(e2e::read_json(dir + "/report.json"));
  EXPECT_EQ(c["status"], "deadlock");
  ASSERT_EQ(c["rank_states"].size(), 2u);
  const json& s0 = c["rank_states"][0];
  EXPECT_EQ(s0["rank"], 0);
  EXPECT_EQ(s0["call"], "recv");
  EXPECT_EQ(s0["blocked"], true);
  EXPECT_GT(s0["since_s"].get<double>(), 0.5);
  EXPECT_EQ(s0["where"], "tests/e2e/scripts/recv_nobody_sends.lua:9");
  EXPECT_EQ(c["rank_states"][1]["call"], "barrier");
  expect_nothing_left(r.pid);
}

// Ranks that start 2 s late still get the whole 1 s limit: a case that finishes passes, and
// one that deadlocks is a deadlock, not a timeout of the start.
TEST(Foundation, TheDeadlineCountsFromWhenEveryRankIsUp) {
  const std::string dir = e2e::temp_dir("late");
  auto r = run({"run", "tests/e2e/scripts/recv_nobody_sends.lua",
                "lua_scripts/passive/lock_put_unlock.lua", "--timeout", "1", "--rank-exec",
                "sh tests/e2e/scripts/start_late.sh", "--report-dir", dir});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 2u);
  EXPECT_EQ(report["cases"][0]["status"], "deadlock") << report["cases"][0].dump();
  EXPECT_EQ(report["cases"][0]["reason"], "every rank is blocked in a library call after 1 s");
  EXPECT_EQ(report["cases"][1]["status"], "pass") << report["cases"][1].dump();
  expect_nothing_left(r.pid);
}

TEST(Foundation, ComputingRankMakesATimeoutNotADeadlock) {
  auto r = run({"run", "tests/e2e/scripts/spin_forever.lua", "--timeout", "1.5"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("TIMEOUT"), std::string::npos) << r.out;
  expect_nothing_left(r.pid);
}

TEST(Foundation, HundredBarrierRunsLeaveNothingBehind) {
  for (int i = 0; i < 100; ++i) {
    auto r = run({"run", "tests/e2e/scripts/barrier4.lua"}, 30);
    ASSERT_EQ(r.exit_code, 0) << "run " << i << ": " << r.out << r.err;
    expect_nothing_left(r.pid);
  }
}

TEST(Foundation, ExpectationFailuresAndSkips) {
  auto fail = run({"run", "tests/e2e/scripts/fail_and_skip.lua", "-o", "mode=fail"});
  EXPECT_EQ(fail.exit_code, 1);
  EXPECT_NE(fail.out.find("fail_and_skip.lua:12: rank is negative"), std::string::npos) << fail.out;
  EXPECT_NE(fail.out.find("size: expected 3, got 2"), std::string::npos) << fail.out;
  auto skip = run({"run", "tests/e2e/scripts/fail_and_skip.lua", "-o", "mode=skip"});
  EXPECT_EQ(skip.exit_code, 0);
  EXPECT_EQ(last_line(skip.out), "0 passed, 0 failed, 1 skipped");
}

struct BadCli {
  std::vector<std::string> args;
  const char* says;
};

void PrintTo(const BadCli& b, std::ostream* os) {
  for (const auto& a : b.args) *os << a << ' ';
}

class BadCommandLines : public ::testing::TestWithParam<BadCli> {};

TEST_P(BadCommandLines, OneLineErrorAndExitTwo) {
  auto r = run(GetParam().args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
  EXPECT_NE(r.err.find(GetParam().says), std::string::npos) << r.err;
}

std::string cli_name(const ::testing::TestParamInfo<BadCli>& info) {
  std::string s;
  for (const auto& a : info.param.args)
    for (char ch : a) s += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return s + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(
    Cli, BadCommandLines,
    ::testing::Values(
        BadCli{{"run", "--bogus", "lua_scripts/examples/hello.lua"}, "--bogus"},
        BadCli{{"run", "no/such/script.lua"}, "no/such/script.lua"},
        BadCli{{"run", "lua_scripts/examples/hello.lua", "-n", "0"}, "--ranks"},
        BadCli{{"run", "lua_scripts/examples/hello.lua", "-n", "5000"}, "--ranks"},
        BadCli{{"run", "lua_scripts/examples/hello.lua", "-o", "nope=1"}, "'nope' is not declared"},
        BadCli{{"run", "lua_scripts/examples/hello.lua", "-o", "bytes=abc"}, "expects an integer"},
        BadCli{{"run", "lua_scripts/examples/hello.lua", "--backend", "foo"}, "--backend"},
        // Checked in the parent before any rank starts: a provider libfabric does not have
        // here, and one for a run with no fabric case (it would only rename the cases).
        BadCli{{"run", "lua_scripts/examples/hello.lua", "--backend", "fabric", "--provider",
                "nonsense"},
               "--provider nonsense: "},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--backend", "fabric", "--provider",
                "nonsense"},
               "--provider nonsense: "},
        BadCli{{"run", "lua_scripts/examples/hello.lua", "--provider", "tcp;ofi_rxm"},
               "--provider applies to the reference implementation's fabric backend only"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--backend", "shm", "--provider",
                "nonsense"},
               "--provider applies to the reference implementation's fabric backend only"},
        // --sizes: doubling to 2^63 wrapped to 0 and looped forever; a sign or a suffix
        // wrapped too.
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--sizes", "1:9223372036854775808"},
               "--sizes 1:9223372036854775808: '9223372036854775808' is larger than"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--sizes=-1"},
               "--sizes -1: '-1' is not a number of bytes"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--sizes", "17179869184G"},
               "--sizes 17179869184G: '17179869184G' is larger than"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--sizes", "1,2,"}, "empty entry"},
        // The second value replaced the first without a word.
        BadCli{{"run", "lua_scripts/examples/hello.lua", "-o", "bytes=8", "-o", "bytes=16"},
               "-o bytes=16: option 'bytes' is already given (bytes=8); give it once"},
        // A size or sync mode twice gave two figures of one name, which no gate pairs;
        // --sizes= and --sync= were taken as not given.
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--sizes", "8,1K,1024"},
               "--sizes 8,1K,1024: 1024 bytes is listed twice"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--sizes="}, "--sizes: 1 required"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--sizes", ""}, "--sizes: no size given"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--sizes", "1:"},
               "--sizes 1:: MAX is missing"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--sync", "lock,flush,lock"},
               "--sync 'lock,flush,lock': lock is listed twice"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--sync="}, "--sync: 1 required"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--sync", ","},
               "--sync ',': an empty entry"},
        // An empty value was read as not given: the run wrote no report, with exit 0.
        BadCli{{"run", "lua_scripts/examples/hello.lua", "--report-dir", ""},
               "--report-dir: expected a value, got an empty string"},
        BadCli{{"describe", "lua_scripts/examples/hello.lua", "--title", "t"},
               "describe: --title needs --svg (and --trace)"},
        // --target-mode dropped empty entries and repeats without a word.
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--target-mode", "wait,"},
               "--target-mode 'wait,': an empty entry"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--target-mode", "recv,wait,recv"},
               "--target-mode 'recv,wait,recv': recv is listed twice"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--sizes", "3:64"},
               "MIN 3 is not a power of two"},
        // NaN passes CLI11's Range: every floating-point option, of every command.
        BadCli{{"run", "lua_scripts/examples/hello.lua", "--timeout", "nan"},
               "--timeout: expected a finite number, got nan"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--timeout", "nan"},
               "--timeout: expected a finite number, got nan"},
        BadCli{{"describe", "lua_scripts/examples/hello.lua", "--trace", "--timeout", "nan"},
               "--timeout: expected a finite number, got nan"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--min-time", "nan"},
               "--min-time: expected a finite number, got nan"},
        BadCli{{"bench", "lua_scripts/bench/latency.lua", "--min-time", "inf"},
               "--min-time: expected a finite number, got inf"},
        BadCli{{"gate", "CMakeLists.txt", "--baseline", "CMakeLists.txt", "--threshold", "nan"},
               "--threshold: expected a finite number, got nan"},
        BadCli{{"gate", "CMakeLists.txt", "--baseline", "CMakeLists.txt", "--alpha", "NaN"},
               "--alpha: expected a finite number, got NaN"},
        // A number option is read as the ranks' Lua reads it: inf and nan are no numbers there
        // (it arrived as nil), 1e999 is an infinite one.
        BadCli{{"run", "lua_scripts/pscw/start_before_post.lua", "-o", "delay_s=inf"},
               "option delay_s expects a number, got 'inf'"},
        BadCli{{"list", "lua_scripts/pscw/start_before_post.lua", "-o", "delay_s=nan"},
               "option delay_s expects a number, got 'nan'"},
        BadCli{{"list", "lua_scripts/pscw/start_before_post.lua", "-o", "delay_s=1e999"},
               "option delay_s expects a finite number, got '1e999'"},
        // As `run` and `bench` say: a filter that matches nothing is a mistake.
        BadCli{{"list", "lua_scripts/examples/hello.lua", "--filter", "zzz_nomatch"},
               "lua_scripts/examples/hello.lua: no case to run matches --filter"},
        BadCli{{"run", "lua_scripts/examples/hello.lua", "--filter", "zzz_nomatch"},
               "lua_scripts/examples/hello.lua: no case to run matches --filter"},
        BadCli{{"frobnicate"}, "frobnicate"}),
    cli_name);

TEST(Foundation, ListDescribeInfoVersion) {
  auto list = run({"list", "lua_scripts/examples/hello.lua", "-n", "3"});
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_EQ(list.out, "examples/hello[shm,am,np=3]\n");
  auto describe = run({"describe", "lua_scripts/examples/hello.lua"});
  EXPECT_EQ(describe.exit_code, 0);
  EXPECT_NE(describe.out.find("bytes per ring message"), std::string::npos) << describe.out;
  auto info = run({"info"});
  EXPECT_EQ(info.exit_code, 0);
  EXPECT_NE(info.out.find("cores"), std::string::npos);
  EXPECT_NE(info.out.find("shm"), std::string::npos);
  auto version = run({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("rmabench ", 0), 0u) << version.out;
  for (const char* cmd : {"run", "list", "describe", "info"}) {
    auto help = run({cmd, "--help"});
    EXPECT_EQ(help.exit_code, 0) << cmd;
    EXPECT_NE(help.out.find("Usage"), std::string::npos) << cmd;
  }
}

}  // namespace
