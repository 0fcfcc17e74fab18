// End-to-end: `rmabench gate` on report files (exit codes 0/1/2, text and Markdown diffs,
// errors naming the file and the field), and `rmabench run --format html` followed by a gate
// of the run against edited copies of its own report.
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

using e2e::run;
using nlohmann::json;

json minimal_case(const std::string& id, const std::string& status) {
  return {{"id", id},
          {"script", "lua_scripts/x.lua"},
          {"name", "x"},
          {"status", status},
          {"expected", "pass"},
          {"ranks", 2},
          {"backend", "shm"},
          {"provider", ""},
          {"path", "am"},
          {"progress", "async"},
          {"duration_s", 0.1},
          {"messages", {{"measured", true}, {"total", 2}, {"by_type", {{"put", 1}, {"ack", 1}}}}},
          {"failures", json::array()}};
}

json minimal_report() {
  json bench = json::array();
  for (double t : {10.0, 10.1, 9.9, 10.05, 9.95}) {
    bench.push_back({{"name", "put/lock/8/shm:am/manual_time"},
                     {"run_name", "put/lock/8/shm:am/manual_time"},
                     {"run_type", "iteration"},
                     {"real_time", t},
                     {"time_unit", "us"}});
  }
  return {{"schema", "rmabench.report/v1"},
          {"context",
           {{"rmabench_version", "0.1.0"},
            {"git_revision", "abc"},
            {"host", "node-1"},
            {"command", "rmabench run"},
            {"started_at", "2024-05-01T12:00:00Z"},
            {"topology", {{"cores", 2}}},
            {"options", json::object()}}},
          {"cases", json::array({minimal_case("s/a", "pass"), minimal_case("s/b", "pass")})},
          {"benchmarks", bench},
          {"summary", {{"passed", 2}, {"failed", 0}, {"skipped", 0}, {"duration_s", 0.2}}}};
}

std::string write(const std::string& dir, const std::string& name, const json& j) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << j.dump(2);
  return path;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(GateCommand, SameReportPassesAndARegressionFails) {
  const std::string dir = e2e::temp_dir("gate");
  const std::string base = write(dir, "base.json", minimal_report());
  auto r = run({"gate", base, "--baseline", base});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("OK: no regression"), std::string::npos) << r.out;

  json now = minimal_report();
  now["cases"][1]["status"] = "fail";
  now["cases"][0]["messages"]["by_type"] = {{"put", 1}, {"get_resp", 1}};
  for (auto& b : now["benchmarks"]) b["real_time"] = b["real_time"].get<double>() * 1.3;
  const std::string cur = write(dir, "now.json", now);
  r = run({"gate", cur, "--baseline", base});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("REGRESSED: 3 regressions"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("s/b: PASS -> FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("s/a: ack 1 -> 0, get_resp 0 -> 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("put/lock/8/shm:am/manual_time: 10.00 us -> 13.00 us (+30.0%; U test"),
            std::string::npos)
      << r.out;

  r = run({"gate", cur, "--baseline", base, "--format", "md"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out.rfind("## rmabench gate: regressed, 3 regressions\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("| now failing | `s/b` | PASS | FAIL |"), std::string::npos) << r.out;

  // A threshold above the slowdown leaves the cases' regressions only.
  r = run({"gate", cur, "--baseline", base, "--threshold", "0.5"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("REGRESSED: 2 regressions"), std::string::npos) << r.out;
}

TEST(GateCommand, OtherHostIsReportedNotGated) {
  const std::string dir = e2e::temp_dir("gate-host");
  const std::string base = write(dir, "base.json", minimal_report());
  json now = minimal_report();
  now["context"]["host"] = "node-2";
  for (auto& b : now["benchmarks"]) b["real_time"] = b["real_time"].get<double>() * 2;
  auto r = run({"gate", write(dir, "now.json", now), "--baseline", base});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Latency not gated: the baseline was taken on host 'node-1', this run on "
                       "'node-2'"),
            std::string::npos)
      << r.out;
}

TEST(GateCommand, UnreadableInputIsAUsageErrorNamingFileAndField) {
  const std::string dir = e2e::temp_dir("gate-usage");
  const std::string base = write(dir, "base.json", minimal_report());

  auto r = run({"gate", dir + "/nope.json", "--baseline", base});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("nope.json"), std::string::npos) << r.err;

  r = run({"gate", base});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--baseline"), std::string::npos) << r.err;

  std::ofstream(dir + "/text.json") << "not json at all\n";
  r = run({"gate", dir + "/text.json", "--baseline", base});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("report " + dir + "/text.json is not JSON"), std::string::npos) << r.err;

  json broken = minimal_report();
  broken["cases"][1]["status"] = "sideways";
  r = run({"gate", base, "--baseline", write(dir, "broken.json", broken)});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("baseline " + dir + "/broken.json is not an rmabench report"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("'cases[1].status'"), std::string::npos) << r.err;

  r = run({"gate", base, "--baseline", write(dir, "array.json", json::array())});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("array.json is not an rmabench report"), std::string::npos) << r.err;

  r = run({"gate", base, "--baseline", base, "--format", "pdf"});
  EXPECT_EQ(r.exit_code, 2);
  r = run({"gate", base, "--baseline", base, "--alpha", "0"});
  EXPECT_EQ(r.exit_code, 2);
}

// A report the gate cannot judge is a usage error naming what is wrong and where: a benchmark
// field of the wrong type, a case id twice, a baseline of another suite or an empty one.
TEST(GateCommand, InputsThatCannotBeGatedAreUsageErrors) {
  const std::string dir = e2e::temp_dir("gate-inputs");
  const std::string base = write(dir, "base.json", minimal_report());

  json bad = minimal_report();
  bad["benchmarks"][3]["real_time"] = "fast";
  auto r = run({"gate", write(dir, "fast.json", bad), "--baseline", base});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("'benchmarks[3].real_time' must be a number"), std::string::npos) << r.err;
  bad = minimal_report();
  bad["benchmarks"][1]["time_unit"] = "xs";
  r = run({"gate", write(dir, "xs.json", bad), "--baseline", base});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("'benchmarks[1].time_unit' must be"), std::string::npos) << r.err;

  json dup = minimal_report();
  dup["cases"].push_back(minimal_case("s/a", "fail"));
  r = run({"gate", write(dir, "dup.json", dup), "--baseline", base});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("dup.json: case id 's/a' appears twice: cases[0] and cases[2]"),
            std::string::npos)
      << r.err;
  r = run({"gate", base, "--baseline", dir + "/dup.json"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("baseline " + dir + "/dup.json: case id 's/a'"), std::string::npos) << r.err;

  json other = minimal_report();
  other["cases"][0]["id"] = "t/x";
  other["cases"][1]["id"] = "t/y";
  r = run({"gate", base, "--baseline", write(dir, "other.json", other)});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("share no case id: probably another suite or configuration"),
            std::string::npos)
      << r.err;

  json empty = minimal_report();
  empty["cases"] = json::array();
  empty["benchmarks"] = json::array();
  r = run({"gate", base, "--baseline", write(dir, "empty.json", empty)});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("nothing to gate against"), std::string::npos) << r.err;
}

// A benchmark the baseline timed that is gone, or only an error now, fails the gate.
TEST(GateCommand, LostBenchmarkFigureFails) {
  const std::string dir = e2e::temp_dir("gate-lost");
  const std::string base = write(dir, "base.json", minimal_report());
  json now = minimal_report();
  now["benchmarks"] = json::array();
  auto r = run({"gate", write(dir, "gone.json", now), "--baseline", base});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("benchmarks that lost their figure:\n    put/lock/8/shm:am/manual_time: "
                       "10.00 us in the baseline, now missing from the report\n"),
            std::string::npos)
      << r.out;

  now = minimal_report();
  for (auto& b : now["benchmarks"]) {
    b["error_occurred"] = true;
    b["error_message"] = "window alloc failed";
  }
  r = run({"gate", write(dir, "error.json", now), "--baseline", base});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("now an error: window alloc failed"), std::string::npos) << r.out;
}

TEST(GateCommand, KnownIntermittentFailureIsListedNotGated) {
  const std::string dir = e2e::temp_dir("gate-known");
  const std::string base = write(dir, "base.json", minimal_report());
  json now = minimal_report();
  now["cases"][1]["status"] = "error";
  now["cases"][1]["failures"] = json::array(
      {{{"rank", 0}, {"where", "x.lua:47"}, {"message", "MPI_Put: MPI_ERR_RMA_RANGE"}}});
  const std::string cur = write(dir, "now.json", now);
  const json entry = {{"case", "s/b"},
                      {"verdict", "error"},
                      {"contains", "MPI_ERR_RMA_RANGE"},
                      {"defect", "defect 15"}};
  const std::string known = write(dir, "known.json", {{"known_intermittent", {entry}}});
  auto r = run({"gate", cur, "--baseline", base, "--known", known});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("OK: no regression"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("s/b: PASS -> ERROR (rank 0 x.lua:47: MPI_Put: MPI_ERR_RMA_RANGE); "
                       "known: defect 15"),
            std::string::npos)
      << r.out;

  // The same case failing another way is a regression.
  now["cases"][1]["failures"][0]["message"] = "MPI_Put: MPI_ERR_OTHER";
  r = run({"gate", write(dir, "other.json", now), "--baseline", base, "--known", known});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("s/b: PASS -> ERROR"), std::string::npos) << r.out;

  // A bad entry is a usage error naming the file and the field.
  json bad = entry;
  bad["verdict"] = "skip";
  r = run({"gate", cur, "--baseline", base, "--known",
           write(dir, "bad.json", {{"known_intermittent", {entry, bad}}})});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("known " + dir + "/bad.json: known_intermittent[1].verdict: 'skip'"),
            std::string::npos)
      << r.err;
}

// The committed list CI passes reads, and each entry names a case that passes in a committed
// baseline (a renamed case would leave its entry excusing nothing).
TEST(GateCommand, CommittedKnownListNamesBaselineCases) {
  const std::string dir = e2e::source_dir() + "/reports/baseline";
  const json known = e2e::read_json(dir + "/known-intermittent.json");
  ASSERT_FALSE(known["known_intermittent"].empty());
  // An entry excuses a case that passed in its baseline (a case failing there is gated as
  // failing in both already).
  std::set<std::string> passing;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    if (f.path().filename() == "known-intermittent.json" || f.path().extension() != ".json")
      continue;
    const json report = e2e::read_json(f.path().string());
    for (const auto& c : report["cases"])
      if (c["status"] == "pass") passing.insert(c["id"].get<std::string>());
  }
  for (const auto& k : known["known_intermittent"])
    EXPECT_TRUE(passing.count(k["case"].get<std::string>())) << k["case"];
  const std::string base = dir + "/quick-openmpi.json";
  auto r = run({"gate", base, "--baseline", base, "--known", dir + "/known-intermittent.json"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(GateCommand, RunWritesHtmlThenGatesAgainstItsOwnReport) {
  const std::string dir = e2e::temp_dir("gate-run");
  auto r = run({"run", "lua_scripts/passive/lock_put_unlock.lua", "--format", "json,html",
                "--report-dir", dir});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::ifstream html(dir + "/report.html");
  std::string head(15, '\0');
  html.read(head.data(), 15);
  EXPECT_EQ(head, "<!DOCTYPE html>");
  EXPECT_FALSE(std::filesystem::exists(dir + "/junit.xml"));

  const std::string report = dir + "/report.json";
  r = run({"gate", report, "--baseline", report});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;

  // A baseline that counted one more put: the run's count changed, so the gate fails.
  json base = e2e::read_json(report);
  ASSERT_TRUE(base["cases"][0]["messages"]["measured"].get<bool>());
  const auto total = base["cases"][0]["messages"]["total"].get<std::uint64_t>();
  base["cases"][0]["messages"]["total"] = total + 1;
  r = run({"gate", report, "--baseline", write(dir, "more.json", base)});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("message counts changed"), std::string::npos) << r.out;

  // A baseline in which the case failed: now passing is an improvement, exit 0.
  base = e2e::read_json(report);
  base["cases"][0]["status"] = "fail";
  r = run({"gate", report, "--baseline", write(dir, "failed.json", base)});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("OK: no regression, 1 improvement"), std::string::npos) << r.out;
}

// Issue acceptance, against the committed baseline of the quick suite on shm am: a fault that
// only costs messages (the singleton optimization off) keeps every data check passing but
// fails the gate naming the counts; a conformance fault fails it naming the failing cases;
// nothing injected passes it.
struct BaselineRun {
  e2e::RunResult gate;
  json report;
};

BaselineRun quick_against_baseline(const std::string& fault) {
  const std::string dir = e2e::temp_dir("gate-baseline-" + (fault.empty() ? "none" : fault));
  std::vector<std::string> env;
  if (!fault.empty()) env.push_back("RMA_FAULT=" + fault);
  auto r = run({"run", "suites/quick.lua", "--backend", "shm", "--path", "am", "--timeout", "5",
                "--report-dir", dir, "--format", "json"},
               600, env);
  EXPECT_EQ(r.exit_code, fault.empty() ? 0 : 1) << r.out.substr(0, 3000) << r.err;
  BaselineRun b{run({"gate", dir + "/report.json", "--baseline",
                     e2e::source_dir() + "/reports/baseline/quick-shm-am.json"}),
                e2e::read_json(dir + "/report.json")};
  return b;
}

TEST(GateCommittedBaseline, NothingInjectedPasses) {
  auto b = quick_against_baseline("");
  EXPECT_EQ(b.gate.exit_code, 0) << b.gate.out << b.gate.err;
  EXPECT_NE(b.gate.out.find("OK: no regression"), std::string::npos) << b.gate.out;
}

TEST(GateCommittedBaseline, SingletonOffKeepsDataChecksButFailsOnCounts) {
  auto b = quick_against_baseline("no_singleton");
  int count_failures = 0;
  for (const auto& c : b.report["cases"]) {
    for (const auto& f : c["failures"]) {
      EXPECT_EQ(f["where"], "messages") << c["id"] << ": " << f.dump();
      ++count_failures;
    }
  }
  EXPECT_GT(count_failures, 0);
  EXPECT_EQ(b.gate.exit_code, 1) << b.gate.out << b.gate.err;
  EXPECT_NE(b.gate.out.find("message counts changed"), std::string::npos) << b.gate.out;
  // The lock-put-unlock case is named with the count that changed: 2 messages became 4.
  EXPECT_NE(b.gate.out.find("quick/passive/lock_put_unlock[shm,am,np=2,size=8]: total 2 -> 4"),
            std::string::npos)
      << b.gate.out;
}

TEST(GateCommittedBaseline, ConformanceFaultNamesTheFailingCases) {
  auto b = quick_against_baseline("put_short");
  EXPECT_EQ(b.gate.exit_code, 1) << b.gate.out << b.gate.err;
  EXPECT_NE(b.gate.out.find("passed in the baseline, now failing"), std::string::npos)
      << b.gate.out;
  int named = 0;
  for (const auto& c : b.report["cases"]) {
    if (c["status"] == "pass" || c["status"] == "skip") continue;
    if (c["status"] == "deadlock" && c["expected"] == "deadlock") continue;
    const std::string id = c["id"];
    EXPECT_NE(b.gate.out.find(id + ": PASS -> "), std::string::npos) << id << "\n" << b.gate.out;
    ++named;
  }
  EXPECT_GT(named, 0);
}

}  // namespace
