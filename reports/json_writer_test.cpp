#include "reports/json_writer.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "reports/testing/sample_report.hpp"

namespace reports {
namespace {

TEST(JsonWriter, PrettyAndReadsBack) {
  const Report r = sample::sample_report();
  std::ostringstream out;
  write_json(r, out);
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("{\n  \"", 0), 0u) << text.substr(0, 40);  // 2-space indent
  EXPECT_NE(text.find("\n  \"schema\": \"rmabench.report/v1\""), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
  Report back = report_from_json(nlohmann::json::parse(text));
  // hostile_text carries invalid UTF-8, written as U+FFFD; everything else is unchanged.
  EXPECT_NE(back.cases[1].failures[0].message.find("\xEF\xBF\xBD"), std::string::npos);
  back.cases[1].failures[0].message = r.cases[1].failures[0].message;
  back.cases[1].log[1] = r.cases[1].log[1];
  EXPECT_EQ(back, r);
}

}  // namespace
}  // namespace reports
