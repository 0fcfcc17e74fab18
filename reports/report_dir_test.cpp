#include "reports/report_dir.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include "reports/json_writer.hpp"
#include "reports/testing/sample_report.hpp"
#include "support/temp_dir.hpp"

namespace reports {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class ReportDir : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp = std::make_unique<test_support::TempDir>("report-dir");
    dir = tmp->path();
  }
  void TearDown() override { tmp.reset(); }
  std::unique_ptr<test_support::TempDir> tmp;
  fs::path dir;
};

TEST_F(ReportDir, WritesEachFormatAndNothingElse) {
  const Report r = sample::sample_report();
  write_report_dir(r, dir / "nested", {"console", "json", "junit", "md", "json"});
  const fs::path out = dir / "nested";
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(out)) names.insert(e.path().filename().string());
  EXPECT_EQ(names, (std::set<std::string>{"report.json", "junit.xml", "report.md"}));

  std::ostringstream json;
  write_json(r, json);
  EXPECT_EQ(slurp(out / "report.json"), json.str());
  EXPECT_EQ(slurp(out / "junit.xml").rfind("<?xml", 0), 0u);
  EXPECT_EQ(slurp(out / "report.md").rfind("# rmabench report", 0), 0u);
}

TEST_F(ReportDir, ReplacesAnExistingFile) {
  fs::create_directories(dir);
  std::ofstream(dir / "report.json")
      << "old and longer than the new one" << std::string(100000, 'x');
  Report r;
  r.finish();
  write_report_dir(r, dir, {"json"});
  const Report back = report_from_json(nlohmann::json::parse(slurp(dir / "report.json")));
  EXPECT_EQ(back, r);
}

TEST_F(ReportDir, UnknownFormatThrowsBeforeWriting) {
  try {
    write_report_dir(sample::sample_report(), dir, {"json", "pdf"});
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'pdf'"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "report.json"));
}

TEST_F(ReportDir, FileNames) {
  EXPECT_EQ(report_file_name("json"), "report.json");
  EXPECT_EQ(report_file_name("junit"), "junit.xml");
  EXPECT_EQ(report_file_name("md"), "report.md");
  EXPECT_EQ(report_file_name("console"), "");
}

TEST_F(ReportDir, UnwritableDirectoryThrows) {
  fs::create_directories(dir);
  std::ofstream(dir / "file") << "x";
  EXPECT_THROW(write_report_dir(Report{}, dir / "file" / "sub", {"json"}), std::runtime_error);
}

}  // namespace
}  // namespace reports
