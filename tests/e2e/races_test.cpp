// --check races end to end: the labelled suite gets its labels; the bug fence/fence_ring.lua
// documents (a read of a slot the neighbour writes in the same fence epoch) is reported with
// both script lines on the am path, where it happens to pass, as on direct; a long lock
// contention run stays clean (its repeated epochs are retired, not reported).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "run_rmabench.hpp"

namespace {

using nlohmann::json;

TEST(Races, LabelledSuiteGetsItsLabels) {
  const std::string dir = e2e::temp_dir("races-suite");
  auto r = e2e::run({"run", "suites/races.lua", "--report-dir", dir, "--format", "json"}, 240);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(e2e::schema_errors(dir + "/report.json"), "");  // every rule is in the schema
  const auto report = e2e::read_json(dir + "/report.json");
  ASSERT_GE(report["cases"].size(), 80u);
  for (const auto& c : report["cases"]) {
    EXPECT_EQ(c["status"], "pass") << c.dump(2);
    // `races` is left out of a case without findings.
    const bool found = c.contains("races") && !c["races"].empty();
    EXPECT_EQ(c["expected"] == "race", found) << c.dump(2);
  }
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
  EXPECT_TRUE(e2e::leftover_segments(r.pid).empty());
}

class FenceRing : public ::testing::TestWithParam<const char*> {};

TEST_P(FenceRing, ReadOfTheNeighboursSlotIsReportedWithBothLines) {
  const std::string dir = e2e::temp_dir(std::string("races-ring-") + GetParam());
  auto r = e2e::run({"run", "lua_scripts/races/fence_ring_one_slot.lua", "--path", GetParam(),
                     "--check", "races", "--report-dir", dir, "--format", "json"},
                    120);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;  // the case expects the race
  const auto report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 1u);
  const json& c = report["cases"][0];
  EXPECT_EQ(c["path"], GetParam());
  bool found = false;
  ASSERT_TRUE(c.contains("races")) << c.dump(2);
  for (const auto& f : c["races"]) {
    const std::set<std::string> lines{f["first"]["where"], f["second"]["where"]};
    if (f["rule"] == "conflict" &&
        lines == std::set<std::string>{"lua_scripts/races/fence_ring_one_slot.lua:18",
                                       "lua_scripts/races/fence_ring_one_slot.lua:20"})
      found = true;
  }
  EXPECT_TRUE(found) << c["races"].dump(2);
}

INSTANTIATE_TEST_SUITE_P(Shm, FenceRing, ::testing::Values("am", "direct"));

TEST(Races, ExpectedRaceWithoutTheCheckerIsSkipped) {
  auto r = e2e::run({"run", "lua_scripts/races/fence_ring_one_slot.lua"}, 120);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 passed, 0 failed, 1 skipped"), std::string::npos) << r.out;
}

TEST(Races, LongLockContentionRunIsClean) {
  for (const char* lock : {"exclusive", "shared"}) {
    const std::string dir = e2e::temp_dir(std::string("races-contention-") + lock);
    auto r = e2e::run({"run", "lua_scripts/passive/lock_contention.lua", "-o", "reps=1000", "-o",
                       std::string("lock=") + lock, "--check", "races", "--timeout", "120",
                       "--report-dir", dir, "--format", "json"},
                      240);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const auto report = e2e::read_json(dir + "/report.json");
    ASSERT_EQ(report["cases"].size(), 1u);
    EXPECT_FALSE(report["cases"][0].contains("races")) << report["cases"][0]["races"].dump(2);
  }
}

}  // namespace
