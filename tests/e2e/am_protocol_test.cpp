// End-to-end: the am path on shared memory. Message counts are measured by the ranks and
// checked here against the table of docs/message-counts.md; the progress, passive-target,
// misuse and atomicity cases run as real rank processes.
#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

using nlohmann::json;

json run_case(const std::vector<std::string>& args, const std::string& tag, double timeout = 120) {
  const std::string dir = e2e::temp_dir(tag);
  std::vector<std::string> a = args;
  a.insert(a.end(), {"--report-dir", dir});
  auto r = e2e::run(a, timeout);
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
  EXPECT_TRUE(e2e::leftover_segments(r.pid).empty());
  json report = e2e::read_json(dir + "/report.json");
  EXPECT_EQ(report["cases"].size(), 1u) << r.out;
  return report["cases"][0];
}

struct Count {
  const char* script;
  std::vector<std::string> extra;
  std::uint64_t total;
  std::map<std::string, std::uint64_t> by_type;
};

// Test names in ctest carry the printed parameter: keep it short.
void PrintTo(const Count& c, std::ostream* os) {
  *os << c.script;
}

std::string count_name(const ::testing::TestParamInfo<Count>& info) {
  std::string s = info.param.script;
  s = s.substr(s.rfind('/') + 1);
  s = s.substr(0, s.find('.'));
  for (const auto& e : info.param.extra)
    for (char ch : e) s += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return s;
}

class MessageCounts : public ::testing::TestWithParam<Count> {};

TEST_P(MessageCounts, MeasuredCountIsTheMinimum) {
  const Count& c = GetParam();
  std::vector<std::string> args{"run",       std::string("lua_scripts/") + c.script,
                                "--backend", "shm",
                                "--path",    "am",
                                "--timeout", "60"};
  args.insert(args.end(), c.extra.begin(), c.extra.end());
  const json k = run_case(args, "count");
  EXPECT_EQ(k["status"], "pass") << k.dump(2);
  EXPECT_EQ(k["path"], "am");
  ASSERT_TRUE(k["messages"]["measured"].get<bool>());
  EXPECT_EQ(k["messages"]["total"].get<std::uint64_t>(), c.total) << k["messages"].dump();
  const auto by_type = k["messages"]["by_type"].get<std::map<std::string, std::uint64_t>>();
  EXPECT_EQ(by_type, c.by_type);
}

INSTANTIATE_TEST_SUITE_P(
    Am, MessageCounts,
    ::testing::Values(
        Count{"passive/lock_put_unlock.lua", {}, 2, {{"put", 1}, {"ack", 1}}},
        Count{"passive/lock_get_unlock.lua", {}, 2, {{"get", 1}, {"get_resp", 1}}},
        Count{"passive/lock_accumulate_unlock.lua", {}, 2, {{"accumulate", 1}, {"ack", 1}}},
        // the default protocol (fewest) where it differs from ch3, then ch3's counts
        Count{"passive/lock_three_puts_unlock.lua", {}, 4, {{"put", 3}, {"ack", 1}}},
        Count{"passive/lock_puts_get_unlock.lua", {}, 4, {{"put", 2}, {"get", 1}, {"get_resp", 1}}},
        Count{"pscw/post_start_put.lua", {}, 1, {{"put", 1}}},
        Count{"pscw/post_start_empty.lua", {}, 1, {{"done", 1}}},
        Count{"passive/lock_put_unlock.lua",
              {"-o", "size=1048576"},
              3,
              {{"put", 1}, {"cts", 1}, {"ack", 1}}},
        Count{"passive/lock_three_puts_unlock.lua",
              {"--protocol", "ch3"},
              6,
              {{"lock", 1}, {"lock_granted", 1}, {"put", 3}, {"ack", 1}}},
        Count{"passive/lock_puts_get_unlock.lua",
              {"--protocol", "ch3"},
              6,
              {{"lock", 1}, {"lock_granted", 1}, {"put", 2}, {"get", 1}, {"get_resp", 1}}},
        Count{"passive/lock_unlock_no_op.lua", {}, 0, {}},
        Count{"passive/lock_nocheck_puts.lua", {}, 4, {{"put", 3}, {"ack", 1}}},
        Count{"pscw/post_start_put.lua", {"--protocol", "ch3"}, 2, {{"post", 1}, {"put", 1}}},
        Count{"pscw/post_start_empty.lua", {"--protocol", "ch3"}, 2, {{"post", 1}, {"done", 1}}},
        Count{"fence/fence_put_fence.lua", {}, 2, {{"fence_count", 1}, {"put", 1}}},
        Count{"fence/fence_ring.lua", {"-n", "4"}, 8, {{"fence_count", 4}, {"put", 4}}},
        Count{"fence/fence_put_fence.lua",
              {"--protocol", "ch3"},
              3,
              {{"fence_count", 2}, {"put", 1}}},
        Count{"fence/fence_ring.lua",
              {"-n", "4", "--protocol", "ch3"},
              12,
              {{"fence_count", 8}, {"put", 4}}},
        Count{"passive/lock_put_unlock.lua",
              {"-o", "size=1048576", "--protocol", "ch3"},
              5,
              {{"lock", 1}, {"lock_granted", 1}, {"put", 1}, {"cts", 1}, {"ack", 1}}},
        // a hold budget below one op (or a lone done's header): fewest asks first
        Count{"passive/lock_budget_below_op.lua",
              {},
              4,
              {{"lock", 1}, {"lock_granted", 1}, {"put", 1}, {"ack", 1}}},
        Count{"pscw/pscw_empty_over_budget.lua", {}, 3, {{"post", 2}, {"done", 1}}}),
    count_name);

TEST(StartRecvComplete, PassesWithAsyncAndCallsProgress) {
  for (const char* mode : {"async", "calls"}) {
    const json k = run_case({"run", "lua_scripts/progress/start_recv_complete.lua", "--progress",
                             mode, "--timeout", "30"},
                            "src");
    EXPECT_EQ(k["status"], "pass") << mode << ": " << k.dump(2);
  }
}

TEST(StartRecvComplete, DeadlocksWithSyncOnlyProgressAndSaysWhere) {
  auto r0 = e2e::run({"run", "lua_scripts/progress/start_recv_complete.lua", "--progress",
                      "sync-only", "--protocol", "ch3", "--timeout", "3"},
                     30);
  EXPECT_LT(r0.seconds, 3 + 5);
  const json k = run_case({"run", "lua_scripts/progress/start_recv_complete.lua", "--progress",
                           "sync-only", "--protocol", "ch3", "--timeout", "3"},
                          "src-sync");
  EXPECT_EQ(k["status"], "deadlock") << k.dump(2);
  ASSERT_EQ(k["rank_states"].size(), 2u);
  EXPECT_EQ(k["rank_states"][0]["call"], "complete");
  EXPECT_EQ(k["rank_states"][0]["blocked"], true);
  EXPECT_EQ(k["rank_states"][1]["call"], "recv");
  EXPECT_EQ(k["rank_states"][1]["blocked"], true);
}

TEST(StartRecvComplete, TwinDeadlocksInEveryProgressMode) {
  for (const char* mode : {"async", "calls", "sync-only"}) {
    const json k = run_case({"run", "lua_scripts/progress/start_recv_complete_twin.lua",
                             "--progress", mode, "--timeout", "2"},
                            "twin");
    EXPECT_EQ(k["status"], "deadlock") << mode;
    EXPECT_EQ(k["expected"], "deadlock");
  }
}

TEST(PassiveTarget, EpochCompletesWhileTheTargetComputes) {
  const json k = run_case({"run", "lua_scripts/progress/passive_target_computing.lua", "--progress",
                           "async", "--timeout", "30"},
                          "passive");
  EXPECT_EQ(k["status"], "pass") << k.dump(2);
  EXPECT_TRUE(k["metrics"].contains("rank0.epoch_s")) << k["metrics"].dump();
}

TEST(Misuse, EveryMisuseGivesItsErrorClass) {
  const json k = run_case({"run", "lua_scripts/errors/misuse.lua", "--timeout", "30"}, "misuse");
  EXPECT_EQ(k["status"], "pass") << k.dump(2);
}

TEST(Misuse, ExpectErrorReportsTheWrongClass) {
  // A check that could fail: expecting RMA_RANGE where the call raises RMA_SYNC.
  const json k = run_case({"run", "tests/e2e/scripts/expect_wrong_class.lua", "--timeout", "30"},
                          "wrongclass");
  EXPECT_EQ(k["status"], "fail");
  ASSERT_FALSE(k["failures"].empty());
  EXPECT_NE(k["failures"][0]["message"].get<std::string>().find("got RMA_SYNC"), std::string::npos)
      << k["failures"].dump();
}

TEST(Atomicity, SharedCounterCasMutexAndExclusiveLocks) {
  for (const char* script :
       {"lua_scripts/atomics/counter_fetch_and_op.lua", "lua_scripts/atomics/cas_mutex.lua",
        "lua_scripts/passive/exclusive_lock_counter.lua"}) {
    const json k = run_case({"run", script, "-n", "4", "--timeout", "60"}, "atomic");
    EXPECT_EQ(k["status"], "pass") << script << ": " << k.dump(2);
  }
}

TEST(Contention, EightRanksOnTwoCoresFinishWithinTheDeadline) {
  // The deadline is the bound: a spinning wait loop would make this a timeout.
  const json k = run_case(
      {"run", "lua_scripts/passive/exclusive_lock_counter.lua", "-n", "8", "--timeout", "30"},
      "contention");
  EXPECT_EQ(k["status"], "pass") << k.dump(2);
}

}  // namespace
