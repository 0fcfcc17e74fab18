// End-to-end: the direct path on shm and the per-window table of operations — shared windows,
// atomicity under concurrency, paths never mixed, and no packet where none is needed.
#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

using nlohmann::json;

json run_one(const std::vector<std::string>& args, const std::string& tag) {
  const std::string dir = e2e::temp_dir(tag);
  std::vector<std::string> a = args;
  a.insert(a.end(), {"--report-dir", dir, "--timeout", "120"});
  auto r = e2e::run(a, 300);
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
  EXPECT_TRUE(e2e::leftover_segments(r.pid).empty());
  json report = e2e::read_json(dir + "/report.json");
  EXPECT_EQ(report["cases"].size(), 1u) << r.out;
  return report["cases"][0];
}

TEST(DirectPath, LockPutUnlockSendsNoPacketAndCountsTheRemotePut) {
  const json c =
      run_one({"run", "lua_scripts/passive/lock_put_unlock.lua", "--path", "direct"}, "d-lpu");
  EXPECT_EQ(c["status"], "pass") << c.dump(2);
  EXPECT_EQ(c["path"], "direct");
  EXPECT_EQ(c["messages"]["total"], 0);
  EXPECT_EQ(c["messages"]["direct"]["put"], 1);
}

TEST(DirectPath, SharedQuerySeesAThirdRanksUpdates) {
  for (const char* path : {"am", "direct"}) {
    const json c = run_one({"run", "lua_scripts/flavors/shared_query.lua", "--path", path}, "sq");
    EXPECT_EQ(c["status"], "pass") << path << ": " << c.dump(2);
    EXPECT_EQ(c["path"], path);
  }
}

TEST(DirectPath, TenThousandFetchAndOpsPerRankAreDistinct) {
  const json c = run_one({"run", "lua_scripts/atomics/counter_fetch_and_op.lua", "-n", "4", "-o",
                          "count=10000", "--path", "direct"},
                         "d-fop");
  EXPECT_EQ(c["status"], "pass") << c.dump(2);
  EXPECT_EQ(c["messages"]["total"], 0);
}

TEST(DirectPath, ConcurrentMegabyteAccumulatesLoseNothing) {
  const json c = run_one({"run", "lua_scripts/atomics/accumulate_concurrent.lua", "-n", "4", "-o",
                          "bytes=1048576", "-o", "times=50", "--path", "direct"},
                         "d-acc");
  EXPECT_EQ(c["status"], "pass") << c.dump(2);
  EXPECT_GT(c["messages"]["direct"]["cpu_atomic"].get<long>(), 0);
}

TEST(DirectPath, CasMutexLosesNothing) {
  const json c =
      run_one({"run", "lua_scripts/atomics/cas_mutex.lua", "-n", "4", "--path", "direct"}, "d-cas");
  EXPECT_EQ(c["status"], "pass") << c.dump(2);
}

TEST(DirectPath, AWindowsAccumulatesAllTakeOnePath) {
  const json c = run_one({"run", "lua_scripts/flavors/paths_not_mixed.lua"}, "mixed");
  EXPECT_EQ(c["status"], "pass") << c.dump(2);
  EXPECT_EQ(c["path"], "am,direct");
}

TEST(DirectPath, QuickSuitePassesOnBothPaths) {
  for (const char* path : {"am", "direct"}) {
    const std::string dir = e2e::temp_dir(std::string("quick-") + path);
    auto r = e2e::run({"run", "suites/quick.lua", "--path", path, "--report-dir", dir}, 300);
    EXPECT_EQ(r.exit_code, 0) << r.out;
    const json report = e2e::read_json(dir + "/report.json");
    EXPECT_EQ(report["summary"]["failed"], 0);
    for (const auto& c : report["cases"]) {
      if (c["status"] == "pass") {
        EXPECT_NE(c["path"].get<std::string>(), "") << c["id"];
      }
    }
  }
}

}  // namespace
