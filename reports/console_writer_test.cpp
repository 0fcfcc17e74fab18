#include "reports/console_writer.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "reports/testing/sample_report.hpp"

namespace reports {
namespace {

using sample::passed_case;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string last_line(const std::string& text) {
  const auto lines = lines_of(text);
  return lines.empty() ? "" : lines.back();
}

std::string strip_ansi(const std::string& s) {
  return std::regex_replace(s, std::regex("\033\\[[0-9;]*m"), "");
}

std::string summary_of(int passed, int failed, int skipped) {
  Report r;
  auto add = [&](int n, Verdict s) {
    for (int i = 0; i < n; ++i) {
      CaseResult c = passed_case("s/" + std::to_string(r.cases.size()));
      c.status = s;
      r.cases.push_back(c);
    }
  };
  add(passed, Verdict::pass);
  add(failed, Verdict::fail);
  add(skipped, Verdict::skip);
  r.finish();
  std::ostringstream out;
  ConsoleWriter(out, false).summary(r);
  return out.str();
}

TEST(ConsoleSummary, LastLineExactWithoutSkips) {
  EXPECT_EQ(last_line(summary_of(12, 0, 0)), "12 passed, 0 failed");
}

TEST(ConsoleSummary, LastLineExactWithSkips) {
  const std::string out = summary_of(10, 1, 2);
  EXPECT_EQ(last_line(out), "10 passed, 1 failed, 2 skipped");
  EXPECT_EQ(out.back(), '\n');
  // The failed case is listed above the last line.
  EXPECT_NE(out.find("FAIL     s/10"), std::string::npos) << out;
}

TEST(ConsoleSummary, MustDeadlockCountsAsPassed) {
  Report r;
  CaseResult c = passed_case("s/must_deadlock");
  c.expected = Expected::deadlock;
  c.status = Verdict::deadlock;
  r.cases.push_back(c);
  r.finish();
  std::ostringstream out;
  ConsoleWriter(out, true).summary(r);
  EXPECT_EQ(out.str(), "1 passed, 0 failed\n");  // no colour on the summary line either
}

TEST(ConsoleCaseLine, ProgressLeadsTheLine) {
  std::ostringstream out;
  ConsoleWriter con(out, false);
  con.case_line(passed_case("s/a[shm,am,np=2]"), "[ 3/12 0:42]");
  con.case_line(passed_case("s/b[shm,am,np=2]"));
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].rfind("[ 3/12 0:42] PASS     s/a[", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("PASS     s/b[", 0), 0u) << lines[1];
}

TEST(ConsoleCaseLine, MetricsAreOnTheLine) {
  std::ostringstream out;
  ConsoleWriter con(out, false);
  CaseResult a = passed_case("s/a[impl=mpich,np=2]");
  a.metrics["rank0.epoch_s"] = 2.000209;
  con.case_line(a);
  EXPECT_NE(out.str().find("rank0.epoch_s=2"), std::string::npos) << out.str();
}

TEST(ConsoleCaseLine, ColumnsAlign) {
  std::ostringstream out;
  ConsoleWriter con(out, false);
  CaseResult a = passed_case("conformance/a[shm,am,np=2]");
  CaseResult b = passed_case("conformance/much_longer_name[fabric,direct,np=4]");
  b.status = Verdict::deadlock;
  b.duration_s = 10.5;
  b.messages.measured = false;
  CaseResult c = passed_case("s/x");
  c.status = Verdict::timeout;
  c.duration_s = 123.25;
  con.case_line(a);
  con.case_line(b);
  con.case_line(c);
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].rfind("PASS     conformance/a[", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("DEADLOCK conformance/much_longer_name", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("TIMEOUT  s/x ", 0), 0u) << lines[2];
  // Durations end in the same column.
  const auto end_of = [](const std::string& line, const std::string& d) {
    const auto pos = line.find(d);
    return pos == std::string::npos ? std::string::npos : pos + d.size();
  };
  const auto col = end_of(lines[0], "0.012s");
  ASSERT_NE(col, std::string::npos);
  EXPECT_EQ(end_of(lines[1], "10.500s"), col) << lines[1];
  EXPECT_EQ(end_of(lines[2], "123.250s"), col) << lines[2];
  EXPECT_EQ(col, 9 + ConsoleWriter::default_id_width + 2 + 9);
  EXPECT_NE(lines[0].find("0.012s  msgs 2"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].find("msgs"), std::string::npos) << lines[1];  // not measured
}

TEST(ConsoleCaseLine, ColourDoesNotMoveColumns) {
  std::ostringstream plain, coloured;
  CaseResult c = passed_case("s/a");
  c.status = Verdict::crash;
  ConsoleWriter(plain, false).case_line(c);
  ConsoleWriter(coloured, true).case_line(c);
  EXPECT_EQ(plain.str().find('\033'), std::string::npos);
  EXPECT_NE(coloured.str().find("\033["), std::string::npos);
  EXPECT_EQ(strip_ansi(coloured.str()), plain.str());
}

TEST(ConsoleCaseLine, LongIdAndCustomWidth) {
  std::ostringstream out;
  ConsoleWriter con(out, false);
  con.set_id_width(4);
  con.case_line(passed_case("s/abc"));
  EXPECT_EQ(out.str().rfind("PASS     s/abc     0.012s  msgs 2\n", 0), 0u) << out.str();
}

TEST(ConsoleCaseLine, MustDeadlockShowsPassAndWhy) {
  std::ostringstream out;
  CaseResult c = passed_case("s/must");
  c.expected = Expected::deadlock;
  c.status = Verdict::deadlock;
  ConsoleWriter(out, false).case_line(c);
  EXPECT_EQ(out.str().rfind("PASS ", 0), 0u) << out.str();
  EXPECT_NE(out.str().find("(deadlock, expected)"), std::string::npos) << out.str();

  out.str("");
  c.status = Verdict::pass;  // did not deadlock: a failure
  ConsoleWriter(out, false).case_line(c);
  EXPECT_EQ(out.str().rfind("FAIL ", 0), 0u) << out.str();
}

TEST(ConsoleCaseLine, EveryStatusWord) {
  const std::pair<Verdict, const char*> words[] = {
      {Verdict::pass, "PASS"},   {Verdict::fail, "FAIL"},       {Verdict::error, "ERROR"},
      {Verdict::crash, "CRASH"}, {Verdict::timeout, "TIMEOUT"}, {Verdict::deadlock, "DEADLOCK"},
      {Verdict::skip, "SKIP"}};
  for (const auto& [status, word] : words) {
    std::ostringstream out;
    CaseResult c = passed_case("s/a");
    c.status = status;
    ConsoleWriter(out, false).case_line(c);
    EXPECT_EQ(out.str().substr(0, 9), std::string(word) + std::string(9 - std::strlen(word), ' '));
  }
}

TEST(ConsoleDetails, ListsEveryFailureReasonAndRankStates) {
  const Report r = sample::sample_report();
  std::ostringstream out;
  ConsoleWriter con(out, false);
  con.details(r.cases[1]);  // two failures
  const std::string fail = out.str();
  EXPECT_NE(fail.find("         rank 1  lua_scripts/fence_put.lua:21: a<b"), std::string::npos)
      << fail;
  EXPECT_NE(fail.find("         rank -  messages: expected total 2, got 3"), std::string::npos)
      << fail;
  // Rank output cannot send escape sequences to the terminal.
  EXPECT_EQ(fail.find('\x1b'), std::string::npos) << fail;
  EXPECT_NE(fail.find("*z*\\x01\\x1B[31m"), std::string::npos) << fail;
  // The second line of a multi-line message stays indented.
  EXPECT_NE(fail.find("\n           line2"), std::string::npos) << fail;

  out.str("");
  con.details(r.cases[3]);  // timeout with rank states
  const std::string timeout = out.str();
  EXPECT_NE(timeout.find("reason: no progress within 10 s"), std::string::npos) << timeout;
  EXPECT_NE(timeout.find("rank 0: blocked in recv since 3.200s"), std::string::npos) << timeout;
  EXPECT_NE(timeout.find("waiting for message from 1 tag 7"), std::string::npos) << timeout;
  EXPECT_NE(timeout.find("window 0 (allocate, am): access pscw"), std::string::npos) << timeout;
  EXPECT_NE(timeout.find("rank 1: no reply"), std::string::npos) << timeout;
}

TEST(ConsoleCaseLine, UnobservableCountShowsADash) {
  std::ostringstream out;
  ConsoleWriter con(out, false);
  CaseResult c = passed_case("s/a[impl=mpich,np=2,progress=calls]");
  c.messages = MessageCounts{};
  c.messages.unobservable = "not observable in mpich 4.0.2";
  con.case_line(c);
  EXPECT_NE(out.str().find("  msgs \u2014"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("msgs 0"), std::string::npos) << out.str();
}

TEST(ConsoleCaseLine, ImplDefinedShowsItsWordReasonAndCount) {
  std::ostringstream out;
  ConsoleWriter con(out, false);
  Report r;
  CaseResult c = passed_case("s/a[impl=mpich,np=2,progress=calls]");
  c.status = Verdict::impl_defined;
  c.reason = "MPI leaves this to the implementation: x. mpich 4.0.2 fail: y";
  con.case_line(c);
  r.cases.push_back(c);
  r.finish();
  con.summary(r);
  EXPECT_EQ(out.str().rfind("IMPL_DEFINED s/a", 0), 0u) << out.str();
  EXPECT_NE(out.str().find("(MPI leaves this to the implementation: x."), std::string::npos);
  EXPECT_EQ(out.str().find("failed:"), std::string::npos) << out.str();
  EXPECT_EQ(last_line(out.str()), "0 passed, 0 failed, 1 impl_defined");
}
}  // namespace
}  // namespace reports
