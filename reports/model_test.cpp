#include "reports/model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "reports/testing/sample_report.hpp"

namespace reports {
namespace {

using nlohmann::json;
using sample::passed_case;
using sample::sample_report;

TEST(Verdict, NamesRoundTrip) {
  for (Verdict s : {Verdict::pass, Verdict::fail, Verdict::error, Verdict::crash, Verdict::timeout,
                    Verdict::deadlock, Verdict::skip, Verdict::interrupted}) {
    EXPECT_EQ(parse_verdict(to_string(s)), s) << to_string(s);
  }
  EXPECT_EQ(to_string(Verdict::deadlock), "deadlock");
  EXPECT_EQ(to_string(Verdict::timeout), "timeout");
  EXPECT_FALSE(parse_verdict("bogus").has_value());
  EXPECT_FALSE(parse_verdict("PASS").has_value());
  EXPECT_FALSE(parse_verdict("").has_value());
}

TEST(CaseResult, PassedFollowsExpectation) {
  CaseResult c = passed_case("s/a");
  EXPECT_TRUE(c.passed());
  c.status = Verdict::deadlock;
  EXPECT_FALSE(c.passed());  // expected pass, deadlocked
  c.expected = Expected::deadlock;
  EXPECT_TRUE(c.passed());  // must-deadlock that deadlocked
  c.status = Verdict::pass;
  EXPECT_FALSE(c.passed());  // must-deadlock that ran to completion
  c.status = Verdict::skip;
  EXPECT_FALSE(c.passed());
  EXPECT_TRUE(c.skipped());
}

TEST(Report, FinishCountsEveryKind) {
  Report r;
  auto add = [&](Verdict s, Expected expected) {
    CaseResult c = passed_case("s/" + std::to_string(r.cases.size()));
    c.status = s;
    c.expected = expected;
    r.cases.push_back(c);
  };
  add(Verdict::pass, Expected::pass);
  add(Verdict::deadlock, Expected::deadlock);  // passed
  add(Verdict::deadlock, Expected::deadlock);  // passed
  add(Verdict::pass, Expected::deadlock);      // failed: did not deadlock
  add(Verdict::deadlock, Expected::pass);      // failed
  add(Verdict::fail, Expected::pass);
  add(Verdict::error, Expected::pass);
  add(Verdict::crash, Expected::pass);
  add(Verdict::timeout, Expected::pass);
  add(Verdict::skip, Expected::pass);
  add(Verdict::skip, Expected::deadlock);
  add(Verdict::interrupted, Expected::pass);  // neither passed nor failed
  add(Verdict::interrupted, Expected::deadlock);
  r.summary = {99, 99, 99, 4.5};
  r.finish();
  EXPECT_EQ(r.summary.passed, 3);
  EXPECT_EQ(r.summary.failed, 6);
  EXPECT_EQ(r.summary.skipped, 2);
  EXPECT_EQ(r.summary.interrupted, 2);
  EXPECT_DOUBLE_EQ(r.summary.duration_s, 4.5);
}

TEST(Json, RoundTripKeepsEverything) {
  Report r = sample_report();
  r.cases[0].messages.by_type["huge"] = std::numeric_limits<std::uint64_t>::max();
  r.cases[0].metrics = {{"latency_us", 0.1}, {"bandwidth", 1e12}};
  r.cases[0].duration_s = 1.0 / 3.0;
  EXPECT_EQ(report_from_json(to_json(r)), r);

  // Through text, as a baseline on disk would go (dump() rejects the sample's invalid UTF-8,
  // json_writer_test covers that; here the text is hostile but valid).
  r.cases[1].failures[0].message = "a<b & \"c\" 'd'\x01\n\xC3\xA9";
  r.cases[1].log[1] = "rank 1: \t done";
  const Report back = report_from_json(json::parse(to_json(r).dump()));
  EXPECT_EQ(back, r);
  ASSERT_EQ(back.cases.size(), r.cases.size());
  EXPECT_EQ(back.cases[2].rank_states, r.cases[2].rank_states);
  EXPECT_EQ(back.cases[1].failures, r.cases[1].failures);
  EXPECT_EQ(back.cases[0].messages.by_type.at("huge"), std::numeric_limits<std::uint64_t>::max());
}

TEST(Json, CoreFieldNamesAreTheContract) {
  const json j = to_json(sample_report());
  EXPECT_EQ(j.at("schema"), "rmabench.report/v1");
  for (const char* k : {"rmabench_version", "git_revision", "host", "command", "started_at",
                        "topology", "options"}) {
    EXPECT_TRUE(j.at("context").contains(k)) << k;
  }
  const json& c = j.at("cases").at(1);
  for (const char* k :
       {"id",       "script", "name",     "status",      "expected", "ranks",  "backend",
        "provider", "path",   "progress", "duration_s",  "options",  "tags",   "messages",
        "failures", "reason", "metrics",  "rank_states", "log",      "binding"}) {
    EXPECT_TRUE(c.contains(k)) << k;
  }
  EXPECT_EQ(c.at("status"), "fail");
  EXPECT_EQ(c.at("messages").at("measured"), true);
  EXPECT_EQ(c.at("messages").at("total"), 3);
  EXPECT_EQ(c.at("messages").at("by_type").at("lock_put"), 1);
  EXPECT_EQ(c.at("failures").at(1).at("rank"), -1);
  EXPECT_EQ(c.at("failures").at(1).at("where"), "messages");
  EXPECT_EQ(j.at("summary").at("passed"), 3);
  EXPECT_EQ(j.at("summary").at("failed"), 4);
  EXPECT_EQ(j.at("summary").at("skipped"), 1);
  EXPECT_EQ(j.at("benchmarks").at(0).at("name"), "put_latency/lock/8");
}

TEST(Json, NonFiniteMetricIsNullAndReadsBack) {
  Report r;
  CaseResult c = passed_case("s/a");
  c.metrics = {{"ratio", std::numeric_limits<double>::infinity()}};
  r.cases.push_back(c);
  const json j = to_json(r);
  EXPECT_TRUE(j["cases"][0]["metrics"]["ratio"].is_null());
  EXPECT_TRUE(std::isnan(report_from_json(j).cases[0].metrics.at("ratio")));
}

TEST(Json, MinimalCaseReads) {
  json j = to_json(sample_report());
  for (const char* k : {"options", "tags", "reason", "metrics", "rank_states", "log", "binding"}) {
    j["cases"][0].erase(k);
  }
  j["cases"][0]["messages"].erase("transport");
  const Report r = report_from_json(j);
  EXPECT_TRUE(r.cases[0].tags.empty());
  EXPECT_TRUE(r.cases[0].rank_states.is_array());
}

// The error must name the field, with its path, so a broken baseline is quick to fix.
std::string error_of(const json& j) {
  try {
    report_from_json(j);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Json, ErrorsNameTheField) {
  const json good = to_json(sample_report());
  json j = good;
  j.erase("summary");
  EXPECT_NE(error_of(j).find("'summary' is missing"), std::string::npos) << error_of(j);

  j = good;
  j["cases"][1]["status"] = "bogus";
  EXPECT_NE(error_of(j).find("'cases[1].status'"), std::string::npos) << error_of(j);
  EXPECT_NE(error_of(j).find("bogus"), std::string::npos);

  j = good;
  j["cases"][2]["ranks"] = "2";
  EXPECT_NE(error_of(j).find("'cases[2].ranks' must be an integer"), std::string::npos)
      << error_of(j);

  j = good;
  j["cases"][0]["messages"]["by_type"]["lock_put"] = -1;
  EXPECT_NE(error_of(j).find("'cases[0].messages.by_type.lock_put'"), std::string::npos)
      << error_of(j);

  j = good;
  j["cases"][1]["failures"][1].erase("where");
  EXPECT_NE(error_of(j).find("'cases[1].failures[1].where' is missing"), std::string::npos)
      << error_of(j);

  j = good;
  j["context"].erase("git_revision");
  EXPECT_NE(error_of(j).find("'context.git_revision'"), std::string::npos) << error_of(j);

  j = good;
  j["schema"] = "rmabench.report/v2";
  EXPECT_NE(error_of(j).find("'schema'"), std::string::npos) << error_of(j);

  j = good;
  j["cases"][0]["expected"] = "fail";
  EXPECT_NE(error_of(j).find("'cases[0].expected'"), std::string::npos) << error_of(j);

  j = good;
  j["benchmarks"][0].erase("name");
  EXPECT_NE(error_of(j).find("'benchmarks[0].name'"), std::string::npos) << error_of(j);

  j = good;
  j["cases"][0]["duration_s"] = nullptr;
  EXPECT_NE(error_of(j).find("'cases[0].duration_s' must be a number"), std::string::npos)
      << error_of(j);
  j["cases"][0]["duration_s"] = -1.5;
  EXPECT_NE(error_of(j).find("'cases[0].duration_s' must be a number of seconds >= 0"),
            std::string::npos)
      << error_of(j);

  EXPECT_NE(error_of(json::array()).find("object"), std::string::npos);
}

// A benchmark entry whose figure fields have the wrong type would read as "no figure" and
// not be compared: refused like a case's field, by its path.
TEST(Json, BenchmarkFieldsHaveGoogleBenchmarksTypes) {
  const json good = to_json(sample_report());
  ASSERT_GT(good["benchmarks"].size(), 3u);
  EXPECT_EQ(error_of(good), "(no error)");
  const std::vector<std::pair<std::string, json>> bad_fields{
      {"real_time", "fast"},       {"cpu_time", json::array()},
      {"time_unit", "xs"},         {"time_unit", 1},
      {"run_type", "warmup"},      {"run_name", 3},
      {"error_occurred", "true"},  {"error_message", false},
      {"repetitions", -1},         {"repetition_index", 0.5},
      {"iterations", "1000"},      {"bytes_per_second", "1 GB/s"},
      {"aggregate_name", nullptr},
  };
  for (const auto& [key, value] : bad_fields) {
    json j = good;
    j["benchmarks"][3][key] = value;
    EXPECT_NE(error_of(j).find("'benchmarks[3]." + key + "'"), std::string::npos)
        << key << " = " << value.dump() << ": " << error_of(j);
  }
  json j = good;
  j["benchmarks"][3]["real_time"] = nullptr;  // a NaN, as bench_runner writes it
  j["benchmarks"][3]["error_occurred"] = false;
  EXPECT_EQ(error_of(j), "(no error)");
}

// Reports written before durable runs have neither "complete" nor "summary.interrupted":
// they read as complete, with nothing interrupted; an incomplete one reads back as such.
TEST(Json, CompleteAndInterruptedRoundTripAndDefault) {
  Report r = sample::sample_report();
  r.cases[0].status = Verdict::interrupted;
  r.finish();
  r.complete = false;
  nlohmann::json j = to_json(r);
  EXPECT_EQ(j["complete"], false);
  EXPECT_EQ(j["cases"][0]["status"], "interrupted");
  EXPECT_EQ(j["summary"]["interrupted"], 1);
  EXPECT_EQ(report_from_json(j), r);
  j.erase("complete");
  j["summary"].erase("interrupted");
  const Report old = report_from_json(j);
  EXPECT_TRUE(old.complete);
  EXPECT_EQ(old.summary.interrupted, 0);
  j["complete"] = "no";
  EXPECT_THROW(report_from_json(j), std::runtime_error);
}

// A case run on an MPI library: packets not observable, the library named in `impl`.
CaseResult library_case(const std::string& id) {
  CaseResult c = sample::passed_case(id);
  c.backend.clear();
  c.path.clear();
  c.impl = "mpich 4.0.2";
  c.messages = MessageCounts{};
  c.messages.unobservable = "not observable in mpich 4.0.2";
  return c;
}

TEST(Json, UnobservableCountIsNullWithTheReason) {
  Report r;
  r.cases.push_back(library_case("s/a[impl=mpich,np=2,progress=calls]"));
  r.finish();
  const json j = to_json(r);
  const json& m = j.at("cases").at(0).at("messages");
  EXPECT_TRUE(m.at("total").is_null());
  EXPECT_EQ(m.at("measured"), false);
  EXPECT_EQ(m.at("reason"), "not observable in mpich 4.0.2");
  EXPECT_EQ(j.at("cases").at(0).at("impl"), "mpich 4.0.2");
  EXPECT_EQ(j.at("cases").at(0).at("path"), "");
  EXPECT_EQ(report_from_json(json::parse(j.dump())), r);
}

TEST(Json, ReferenceCaseKeepsItsCountAndSaysRef) {
  Report r = sample_report();
  const json j = to_json(r);
  EXPECT_EQ(j.at("cases").at(1).at("messages").at("total"), 3);
  EXPECT_FALSE(j.at("cases").at(1).at("messages").contains("reason"));
  EXPECT_EQ(j.at("cases").at(1).at("impl"), "ref");
  // A case that did not measure (a skip) keeps 0 on the reference: never turned into null.
  for (const auto& c : j.at("cases")) EXPECT_FALSE(c.at("messages").at("total").is_null());
  EXPECT_FALSE(j.at("summary").contains("impl_defined"));
}

TEST(Json, NullTotalNeedsItsReasonAndNoMeasurement) {
  json j = to_json(sample_report());
  json& m = j.at("cases").at(1).at("messages");
  m["total"] = nullptr;
  EXPECT_THROW(report_from_json(j), std::runtime_error);  // measured is true
  m["measured"] = false;
  try {
    report_from_json(j);
    ADD_FAILURE() << "a null total without a reason was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cases[1].messages.reason"), std::string::npos)
        << e.what();
  }
  m["reason"] = "not observable in x";
  EXPECT_EQ(report_from_json(j).cases[1].messages.unobservable, "not observable in x");
}

TEST(Json, ReportsWithoutImplAreTheReference) {
  json j = to_json(sample_report());
  j.at("cases").at(0).erase("impl");
  EXPECT_EQ(report_from_json(j).cases[0].impl, "ref");
}

TEST(Report, ImplDefinedIsNeitherPassedNorFailed) {
  Report r;
  r.cases.push_back(library_case("s/a"));
  r.cases.push_back(library_case("s/b"));
  r.cases[1].status = Verdict::impl_defined;
  r.finish();
  EXPECT_FALSE(r.cases[1].passed());
  EXPECT_FALSE(r.cases[1].failed());
  EXPECT_EQ(r.summary.passed, 1);
  EXPECT_EQ(r.summary.failed, 0);
  EXPECT_EQ(r.summary.skipped, 0);
  EXPECT_EQ(r.summary.impl_defined, 1);
  const json j = to_json(r);
  EXPECT_EQ(j.at("cases").at(1).at("status"), "impl_defined");
  EXPECT_EQ(j.at("summary").at("impl_defined"), 1);
  EXPECT_EQ(report_from_json(j), r);
}
}  // namespace
}  // namespace reports
