// How far a run is: the counter on every case line, and no status line off a terminal.
#include "cli/progress_line.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace harness::cli {
namespace {

TEST(ProgressLine, ClockText) {
  EXPECT_EQ(clock_text(0), "0:00");
  EXPECT_EQ(clock_text(7.9), "0:07");
  EXPECT_EQ(clock_text(62), "1:02");
  EXPECT_EQ(clock_text(3723), "1:02:03");
}

TEST(ProgressLine, CounterPadsTheCaseNumberToTheTotalsWidth) {
  std::ostringstream out;
  ProgressLine p(out, 120, false);
  p.started(3, "s/a");
  EXPECT_EQ(p.counter(), "[  3/120 0:00]");
  p.started(120, "s/b");
  EXPECT_EQ(p.counter(), "[120/120 0:00]");
}

TEST(ProgressLine, OffATerminalOnlyTheLinesAreWritten) {
  std::ostringstream out;
  {
    ProgressLine p(out, 2, false);
    p.started(1, "s/a");
    p.print([&] { out << "line 1\n"; });
    p.started(2, "s/b");
    p.print([&] { out << "line 2\n"; });
  }
  EXPECT_EQ(out.str(), "line 1\nline 2\n");
}

TEST(ProgressLine, OnATerminalTheStatusLineNamesTheRunningCaseAndIsClearedForLines) {
  std::ostringstream out;
  {
    ProgressLine p(out, 2, true);
    p.started(1, "s/a");
    p.print([&] { out << "line 1\n"; });
  }
  const std::string s = out.str();
  EXPECT_NE(s.find("[1/2 0:00] running s/a"), std::string::npos) << s;
  // Cleared before the line, not drawn again after it (no case runs then).
  EXPECT_NE(s.find("\r\033[Kline 1\n"), std::string::npos) << s;
  EXPECT_EQ(s.substr(s.find("line 1\n") + 7).find("running"), std::string::npos) << s;
}

}  // namespace
}  // namespace harness::cli
