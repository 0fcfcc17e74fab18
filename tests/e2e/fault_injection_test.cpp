// The suite's worth: with each deliberate fault of rma_impl/core/fault.hpp injected, the
// quick suite must fail, and the cases that caught the fault are named. A fault nobody
// catches is a hole in the suite.
#include <gtest/gtest.h>

#include <iostream>

#include "run_rmabench.hpp"

namespace {

using nlohmann::json;

class Faults : public ::testing::TestWithParam<const char*> {};

TEST_P(Faults, QuickSuiteCatchesIt) {
  const std::string fault = GetParam();
  const std::string dir = e2e::temp_dir("fault-" + fault);
  // Short deadlines: a fault that loses acks turns cases into timeouts, not hours.
  auto r = e2e::run({"run", "suites/quick.lua", "--timeout", "3", "--report-dir", dir}, 1800,
                    {"RMA_FAULT=" + fault});
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(r.out.size() > 3000 ? r.out.size() - 3000 : 0);
  const json report = e2e::read_json(dir + "/report.json");
  std::vector<std::string> caught;
  for (const auto& c : report["cases"]) {
    const std::string st = c["status"];
    if (st != "pass" && st != "skip" && !(st == "deadlock" && c["expected"] == "deadlock"))
      caught.push_back(c["id"].get<std::string>() + " (" + st + ")");
  }
  EXPECT_FALSE(caught.empty()) << "RMA_FAULT=" << fault << " went unnoticed by the quick suite";
  std::cout << "RMA_FAULT=" << fault << " caught by " << caught.size() << " case(s):\n";
  for (const auto& c : caught) std::cout << "  " << c << "\n";
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
  EXPECT_TRUE(e2e::leftover_segments(r.pid).empty());
}

INSTANTIATE_TEST_SUITE_P(Rma, Faults,
                         ::testing::Values("put_short", "accumulate_wrong_op",
                                           "grant_ignores_table", "no_singleton", "get_not_last",
                                           "drop_ack", "held_op_early"),
                         [](const ::testing::TestParamInfo<const char*>& p) {
                           return std::string(p.param);
                         });

}  // namespace
