#include "reports/markdown_writer.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "reports/testing/sample_report.hpp"

namespace reports {
namespace {

class Markdown : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ostringstream out;
    write_markdown(sample::sample_report(), out);
    md = out.str();
  }
  std::string md;
};

TEST_F(Markdown, TitleContextAndSummary) {
  EXPECT_EQ(md.rfind("# rmabench report\n\n", 0), 0u);
  EXPECT_NE(md.find("| git revision | `6b327bc` |"), std::string::npos) << md;
  EXPECT_NE(md.find("| host | node-1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| options | backend=shm, timeout=10 |"), std::string::npos) << md;
  EXPECT_NE(md.find("**3 passed, 4 failed, 1 skipped** in 12.500s"), std::string::npos) << md;
}

TEST_F(Markdown, CaseTable) {
  EXPECT_NE(
      md.find("| status | case | duration | messages | declared |\n|---|---|---:|---:|---:|\n"),
      std::string::npos);
  EXPECT_NE(md.find("| PASS | `conformance/lock_put_unlock[shm,am,np=2]` | 0.012s | 2 | 2 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| PASS (deadlock, expected) | `conformance/lock_self_deadlock"),
            std::string::npos);
  EXPECT_NE(md.find("| SKIP | `fabric/atomics[fabric,direct,np=2]` | 0.012s | - |"),
            std::string::npos);
  // Every row of the case table has exactly five cells (six unescaped separators).
  std::istringstream lines(md.substr(md.find("| status | case |")));
  int rows = 0;
  for (std::string line; std::getline(lines, line) && !line.empty(); ++rows) {
    int pipes = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
      pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
    }
    EXPECT_EQ(pipes, 6) << line;
  }
  EXPECT_EQ(rows, 2 + 8);
}

TEST_F(Markdown, TopologyInWords) {
  EXPECT_NE(md.find("| topology | packages 1, cores 8, numa 0 |"), std::string::npos) << md;
}

TEST_F(Markdown, LogLinesOfEachCase) {
  EXPECT_NE(md.find("## Logs\n\n### `conformance/fence_put[shm,am,np=2]`\n\n- rank 0: started\n"
                    "- rank 1: a\\<b"),
            std::string::npos)
      << md;
}

TEST_F(Markdown, SectionPerFailedCase) {
  const auto failures = md.find("## Failures");
  ASSERT_NE(failures, std::string::npos);
  for (const char* heading :
       {"### FAIL `conformance/fence_put[shm,am,np=2]`", "### TIMEOUT `progress/pscw_no_progress",
        "### CRASH `progress/rput_crash", "### ERROR `conformance/bad_script"}) {
    EXPECT_NE(md.find(heading, failures), std::string::npos) << heading;
  }
  EXPECT_EQ(md.find("### PASS"), std::string::npos);
  EXPECT_EQ(md.find("### SKIP"), std::string::npos);
  EXPECT_NE(md.find("- rank - `messages`: expected total 2, got 3"), std::string::npos) << md;
  EXPECT_NE(md.find("- reason: no progress within 10 s"), std::string::npos);
  EXPECT_NE(md.find("- rank 0: blocked in recv since 3.200s"), std::string::npos) << md;
  EXPECT_NE(md.find("  - window 0 (allocate, am): access pscw"), std::string::npos) << md;
  EXPECT_NE(md.find("- rank 1: no reply"), std::string::npos);
}

TEST_F(Markdown, HostileTextIsEscaped) {
  EXPECT_NE(md.find("a\\<b \\&\\& c\\>\"d\" 'e' \\|x\\| \\`y\\` \\*z\\*"), std::string::npos) << md;
  EXPECT_NE(md.find("<br>line2"), std::string::npos);
  EXPECT_NE(md.find("\\\\x01\\\\x1B\\[31m"), std::string::npos) << md;  // shown, escaped
  for (char c : {'\x01', '\x1b', '\xff', '\xfe', '\r'}) {
    EXPECT_EQ(md.find(c), std::string::npos) << "byte " << int(static_cast<unsigned char>(c));
  }
}

TEST_F(Markdown, Benchmarks) {
  // The sample's entry names no implementation: "-" in that column.
  EXPECT_NE(md.find("| `put_latency/lock/8` | - | 1000 | 1.25 us | 1.2 us |"), std::string::npos)
      << md;
}

TEST(MarkdownLibrary, DashForUnobservableCountsAndImplDefinedSection) {
  Report r;
  CaseResult c = sample::passed_case("s/a[impl=mpich,np=2,progress=calls]");
  c.messages = MessageCounts{};
  c.messages.unobservable = "not observable in mpich 4.0.2";
  r.cases.push_back(c);
  c.id = "s/b[impl=mpich,np=2,progress=calls]";
  c.status = Verdict::impl_defined;
  c.reason = "MPI leaves this to the implementation: x";
  r.cases.push_back(c);
  r.finish();
  std::ostringstream out;
  write_markdown(r, out);
  const std::string md = out.str();
  EXPECT_NE(md.find("| PASS | `s/a[impl=mpich,np=2,progress=calls]` | 0.012s | \u2014 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("## Implementation-defined"), std::string::npos) << md;
  EXPECT_NE(md.find("### IMPL_DEFINED `s/b[impl=mpich,np=2,progress=calls]`"), std::string::npos)
      << md;
  EXPECT_EQ(md.find("## Failures"), std::string::npos) << md;
}
}  // namespace
}  // namespace reports
