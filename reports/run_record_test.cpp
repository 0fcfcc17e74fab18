// The durable run records: a report rebuilt from them equals the run's, a case started
// without a record is interrupted and the report incomplete, a torn temporary file is
// ignored, and an earlier run's records in the same directory are not read as this run's.
#include "reports/run_record.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include "reports/report_dir.hpp"
#include "reports/testing/sample_report.hpp"
#include "support/temp_dir.hpp"

namespace reports {
namespace {

namespace fs = std::filesystem;

class RunRecords : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = std::make_unique<test_support::TempDir>("run-record");
    dir_ = tmp_->path();
  }
  void TearDown() override { tmp_.reset(); }
  std::unique_ptr<test_support::TempDir> tmp_;

  // The expected list: the sample's cases as the pipeline knows them before they run.
  std::vector<CaseResult> expected_of(const Report& r) {
    std::vector<CaseResult> e;
    for (const auto& c : r.cases) {
      CaseResult b;
      b.id = c.id;
      b.script = c.script;
      b.name = c.name;
      b.ranks = c.ranks;
      b.backend = c.backend;
      e.push_back(b);
    }
    return e;
  }

  fs::path dir_;
};

TEST_F(RunRecords, AllRecordedRebuildsTheSameReport) {
  Report r = sample::sample_report();
  RunRecorder rec(dir_);
  rec.begin(r.context, expected_of(r));
  for (std::size_t k = 0; k < r.cases.size(); ++k) {
    rec.started(k);
    rec.set_elapsed(r.summary.duration_s);
    rec.finished(k, r.cases[k], k == 0 ? r.benchmarks : nlohmann::json::array());
  }
  Report back = read_run_records(dir_);
  EXPECT_TRUE(back.complete);
  // hostile_text carries invalid UTF-8, recorded as U+FFFD (as report.json writes it).
  EXPECT_NE(back.cases[1].failures[0].message.find("\xEF\xBF\xBD"), std::string::npos);
  back.cases[1].failures[0].message = r.cases[1].failures[0].message;
  back.cases[1].log[1] = r.cases[1].log[1];
  EXPECT_EQ(back.context, r.context);
  EXPECT_EQ(back.cases, r.cases);
  EXPECT_EQ(back.benchmarks, r.benchmarks);
  r.finish();
  EXPECT_EQ(back.summary, r.summary);
}

TEST_F(RunRecords, CaseStartedWithoutRecordIsInterrupted) {
  const Report r = sample::sample_report();
  ASSERT_GE(r.cases.size(), 3u);
  RunRecorder rec(dir_);
  rec.begin(r.context, expected_of(r));
  rec.started(0);
  rec.finished(0, r.cases[0], nlohmann::json::array());
  rec.started(1);  // then the parent is killed
  const Report back = read_run_records(dir_);
  EXPECT_FALSE(back.complete);
  ASSERT_EQ(back.cases.size(), 2u);
  EXPECT_EQ(back.cases[0], r.cases[0]);
  EXPECT_EQ(back.cases[1].id, r.cases[1].id);
  EXPECT_EQ(back.cases[1].status, Verdict::interrupted);
  EXPECT_FALSE(back.cases[1].failed());
  EXPECT_EQ(back.summary.interrupted, 1);
  EXPECT_EQ(back.summary.failed, r.cases[0].failed() ? 1 : 0);
}

// A benchmark killed halfway: the rows recorded before the kill are in the rebuilt report
// with its interrupted case; a line the kill tore is dropped; a case that finished keeps
// its rows in its own record only.
TEST_F(RunRecords, RowsOfACaseKilledMidSweepAreKept) {
  const Report r = sample::sample_report();
  ASSERT_GE(r.cases.size(), 2u);
  const nlohmann::json row1 = {{"name", "latency/1"}, {"size", 1}, {"real_time", 0.5}};
  const nlohmann::json row2 = {{"name", "latency/2"}, {"size", 2}, {"real_time", 0.6}};
  const nlohmann::json done = {{"name", "latency/8"}, {"size", 8}, {"real_time", 0.7}};
  RunRecorder rec(dir_);
  rec.begin(r.context, expected_of(r));
  rec.started(0);
  rec.figures(0, nlohmann::json::array({done}));
  rec.finished(0, r.cases[0], nlohmann::json::array({done}));
  EXPECT_FALSE(fs::exists(dir_ / "cases" / "0000.rows")) << "the record holds them";
  rec.started(1);
  rec.figures(1, nlohmann::json::array({row1}));
  rec.figures(1, nlohmann::json::array({row2}));
  std::ofstream(dir_ / "cases" / "0001.rows", std::ios::app) << "[{\"name\": \"latency/4";
  const Report back = read_run_records(dir_);
  EXPECT_FALSE(back.complete);
  ASSERT_EQ(back.cases.size(), 2u);
  EXPECT_EQ(back.cases[1].status, Verdict::interrupted);
  EXPECT_NE(back.cases[1].reason.find("the benchmark entries it had measured are kept (2)"),
            std::string::npos)
      << back.cases[1].reason;
  EXPECT_EQ(back.benchmarks, nlohmann::json::array({done, row1, row2}));
}

TEST_F(RunRecords, KilledBetweenCasesLeavesTheRestOut) {
  const Report r = sample::sample_report();
  RunRecorder rec(dir_);
  rec.begin(r.context, expected_of(r));
  rec.started(0);
  rec.finished(0, r.cases[0], nlohmann::json::array());
  const Report back = read_run_records(dir_);
  EXPECT_FALSE(back.complete);
  ASSERT_EQ(back.cases.size(), 1u);
  EXPECT_EQ(back.summary.interrupted, 0);
}

TEST_F(RunRecords, TornTemporaryFileIsIgnoredAndOldRecordsAreRemoved) {
  const Report r = sample::sample_report();
  {
    RunRecorder rec(dir_);
    rec.begin(r.context, expected_of(r));
    for (std::size_t k = 0; k < r.cases.size(); ++k) rec.finished(k, r.cases[k], {});
  }
  RunRecorder rec(dir_);
  rec.begin(r.context, expected_of(r));  // a new run in the same directory
  rec.started(0);
  std::ofstream(dir_ / "cases" / "0000.json.tmp.1") << "{\"case\": {\"id\"";  // torn write
  const Report back = read_run_records(dir_);
  ASSERT_EQ(back.cases.size(), 1u);
  EXPECT_EQ(back.cases[0].status, Verdict::interrupted);
}

// A run killed before it wrote its report left the earlier run's report.json in place,
// complete and all passed, to be read as its own.
TEST_F(RunRecords, ANewRunRemovesTheEarlierRunsReportFiles) {
  const Report r = sample::sample_report();
  write_report_dir(r, dir_, {"json", "junit", "md", "html"});
  std::ofstream(dir_ / "trace.json") << "{}";
  std::ofstream(dir_ / "notes.txt") << "not ours";
  RunRecorder rec(dir_);
  rec.begin(r.context, expected_of(r));
  for (const char* f : {"report.json", "junit.xml", "report.md", "report.html", "trace.json"})
    EXPECT_FALSE(fs::exists(dir_ / f)) << f;
  EXPECT_TRUE(fs::exists(dir_ / "notes.txt"));
}

TEST_F(RunRecords, MissingOrBrokenRecordsNameTheFile) {
  fs::create_directories(dir_);
  try {
    read_run_records(dir_);
    FAIL() << "no run.json must be an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("run.json"), std::string::npos) << e.what();
  }
  const Report r = sample::sample_report();
  RunRecorder rec(dir_);
  rec.begin(r.context, expected_of(r));
  std::ofstream(dir_ / "cases" / "0000.json") << "{\"case\": {\"id\": 3}}";
  try {
    read_run_records(dir_);
    FAIL() << "a broken record must be an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("0000.json"), std::string::npos) << e.what();
  }
}

// `rmabench report` rebuilds what it can: a damaged record costs its own case's verdict, a
// damaged rows line its own entries, and each is named with its file (and line).
TEST_F(RunRecords, DamageIsNamedAndTheRestRebuilt) {
  const Report r = sample::sample_report();
  ASSERT_GE(r.cases.size(), 3u);
  RunRecorder rec(dir_);
  rec.begin(r.context, expected_of(r));
  for (std::size_t k = 0; k < 2; ++k) {
    rec.started(k);
    rec.finished(k, r.cases[k], nlohmann::json::array());
  }
  // Record 0: its case's ranks of the wrong type, named where it is ("case.ranks").
  nlohmann::json bad = nlohmann::json::parse(std::ifstream(dir_ / "cases" / "0000.json"));
  bad["case"]["ranks"] = "two";
  std::ofstream(dir_ / "cases" / "0000.json") << bad.dump();
  // Case 2 started; of its rows, line 2 is garbage and the last line torn.
  rec.started(2);
  rec.figures(2, nlohmann::json::array({{{"name", "a/1"}, {"size", 1}, {"real_time", 1.0}}}));
  std::ofstream(dir_ / "cases" / "0002.rows", std::ios::app)
      << "GARBAGE{{\n"
      << "[{\"name\": \"b/2\", \"size\": 2, \"real_time\": 2.0}]\n"
      << "[{\"name\": \"c/4";
  EXPECT_THROW(read_run_records(dir_), std::runtime_error) << "the pipeline's use: all or none";
  std::vector<std::string> damaged;
  const Report back = read_run_records(dir_, &damaged);
  ASSERT_EQ(damaged.size(), 2u);
  EXPECT_NE(damaged[0].find("0000.json"), std::string::npos) << damaged[0];
  EXPECT_NE(damaged[0].find("'case.ranks'"), std::string::npos) << damaged[0];
  EXPECT_NE(damaged[1].find("0002.rows:2: "), std::string::npos) << damaged[1];
  EXPECT_FALSE(back.complete);
  ASSERT_EQ(back.cases.size(), 3u);
  EXPECT_EQ(back.cases[0].status, Verdict::interrupted);
  EXPECT_NE(back.cases[0].reason.find("0000.json is damaged"), std::string::npos);
  EXPECT_EQ(back.cases[1].id, r.cases[1].id);  // (its text holds invalid UTF-8, recorded as U+FFFD)
  EXPECT_EQ(back.cases[1].status, r.cases[1].status);
  EXPECT_EQ(back.cases[2].status, Verdict::interrupted);
  ASSERT_EQ(back.benchmarks.size(), 2u);
  EXPECT_EQ(back.benchmarks[0]["name"], "a/1");
  EXPECT_EQ(back.benchmarks[1]["name"], "b/2");
}

// A record copied over another's gave a report with one case twice, complete; a directory
// in a record's place was shown as a case in flight.
TEST_F(RunRecords, ARecordInTheWrongPlaceIsDamage) {
  const Report r = sample::sample_report();
  ASSERT_GE(r.cases.size(), 3u);
  RunRecorder rec(dir_);
  rec.begin(r.context, expected_of(r));
  for (std::size_t k = 0; k < 3; ++k) {
    rec.started(k);
    rec.finished(k, r.cases[k], nlohmann::json::array());
  }
  fs::copy_file(dir_ / "cases" / "0001.json", dir_ / "cases" / "0000.json",
                fs::copy_options::overwrite_existing);
  fs::remove(dir_ / "cases" / "0002.json");
  fs::create_directory(dir_ / "cases" / "0002.json");
  EXPECT_THROW(read_run_records(dir_), std::runtime_error);
  std::vector<std::string> damaged;
  const Report back = read_run_records(dir_, &damaged);
  ASSERT_EQ(damaged.size(), 2u);
  EXPECT_NE(damaged[0].find("0000.json: holds case " + r.cases[1].id + ", not " + r.cases[0].id),
            std::string::npos)
      << damaged[0];
  EXPECT_NE(damaged[1].find("0002.json: is not a file"), std::string::npos) << damaged[1];
  EXPECT_FALSE(back.complete);
  ASSERT_EQ(back.cases.size(), 3u);
  EXPECT_EQ(back.cases[0].status, Verdict::interrupted);
  EXPECT_EQ(back.cases[2].status, Verdict::interrupted);
}

TEST_F(RunRecords, AnExpectedCaseOfTheWrongShapeIsNamedByItsIndex) {
  const Report r = sample::sample_report();
  ASSERT_GE(r.cases.size(), 2u);
  RunRecorder rec(dir_);
  rec.begin(r.context, expected_of(r));
  rec.started(1);
  nlohmann::json run = nlohmann::json::parse(std::ifstream(dir_ / "run.json"));
  run["cases"][1]["ranks"] = "two";
  std::ofstream(dir_ / "run.json") << run.dump();
  try {
    read_run_records(dir_);
    FAIL() << "a damaged run.json must be an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'cases[1].ranks'"), std::string::npos) << e.what();
  }
}

// The pipeline refuses such a --report-dir before the first case with this message.
TEST_F(RunRecords, ADirectoryThatCannotHoldTheRecordsIsNamedWithTheReason) {
  const Report r = sample::sample_report();
  auto refusal = [&](const fs::path& dir) -> std::string {
    try {
      RunRecorder(dir).begin(r.context, expected_of(r));
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  };
  fs::create_directories(dir_);
  std::ofstream(dir_ / "a_file") << "not a directory";
  const std::string file = refusal(dir_ / "a_file");
  EXPECT_NE(file.find((dir_ / "a_file").string() + ": is not a directory"), std::string::npos)
      << file;
  const std::string below = refusal(dir_ / "a_file" / "run");
  EXPECT_NE(below.find((dir_ / "a_file" / "run").string()), std::string::npos) << below;
  EXPECT_NE(below.find("cannot be created: Not a directory"), std::string::npos) << below;
  const std::string proc = refusal("/proc/rmabench-nope");  // refused to root as well
  EXPECT_NE(proc.find("/proc/rmabench-nope"), std::string::npos) << proc;
  EXPECT_NE(proc.find("cannot be created: "), std::string::npos) << proc;
}

}  // namespace
}  // namespace reports
