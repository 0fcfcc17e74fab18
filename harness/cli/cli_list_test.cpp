#include "cli/cli_list.hpp"

#include <gtest/gtest.h>

#include "suite/manifest.hpp"

namespace harness::cli {
namespace {

TEST(CliList, KeepsEmptyEntries) {
  EXPECT_EQ(split_list("8,,64"), (std::vector<std::string>{"8", "", "64"}));
  EXPECT_EQ(split_list(""), (std::vector<std::string>{""}));
  EXPECT_EQ(split_list(",a,"), (std::vector<std::string>{"", "a", ""}));
  EXPECT_EQ(split_list("one"), (std::vector<std::string>{"one"}));
}

std::string choice_error(const std::string& text) {
  try {
    choice_list("--mode", text, {"wait", "recv"}, "wait or recv");
  } catch (const suite::UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(CliList, ChoicesKeepTheirOrder) {
  EXPECT_EQ(choice_list("--mode", "recv,wait", {"wait", "recv"}, "wait or recv"),
            (std::vector<std::string>{"recv", "wait"}));
}

TEST(CliList, ChoiceErrorsNameTheFlagAndTheEntry) {
  EXPECT_EQ(choice_error("wait,"),
            "--mode 'wait,': an empty entry (a leading, doubled or trailing comma?)");
  EXPECT_EQ(choice_error(""), "--mode '': an empty entry (a leading, doubled or trailing comma?)");
  EXPECT_EQ(choice_error("wait,sleep"), "--mode sleep: expected wait or recv");
  EXPECT_EQ(choice_error("recv,wait,recv"), "--mode 'recv,wait,recv': recv is listed twice");
}

TEST(ReportFormats, APlainListReplacesThePlusListAddsToTheDefault) {
  const std::vector<std::string> d = {"json", "junit", "md"};
  EXPECT_EQ(report_formats({"html"}, d), (std::vector<std::string>{"html"}));
  EXPECT_EQ(report_formats({"+html"}, d),
            (std::vector<std::string>{"json", "junit", "md", "html"}));
  EXPECT_EQ(report_formats({"+md", "+console"}, d),
            (std::vector<std::string>{"json", "junit", "md", "console"}));
  EXPECT_THROW(report_formats({"json", "+html"}, d), suite::UsageError);
}

}  // namespace
}  // namespace harness::cli
