#include "reports/rank_state_text.hpp"

#include <gtest/gtest.h>

namespace reports {
namespace {

using nlohmann::json;

TEST(RankStateText, BlockedRankWithWindows) {
  const json s = json::parse(R"({
    "rank": 0, "call": "recv", "blocked": true, "since_s": 3.2, "window": -1, "target": 1,
    "waiting_for": "message from 1 tag 7", "where": "lua_scripts/x.lua:14",
    "windows": [{"id": 0, "flavor": "allocate", "path": "am", "access_epoch": "pscw",
                 "exposure_epoch": "none",
                 "targets": [{"target": 1, "lock": "none", "queued_ops": 1, "in_flight": 0,
                              "awaiting_acks": 0}],
                 "lock_holders": "", "lock_waiters": "2"}],
    "counters": {"packets_sent": 3, "packets_received": 0}})");
  const RankStateText t = describe_rank_state(s);
  EXPECT_EQ(t.headline,
            "rank 0: blocked in recv since 3.200s, target 1, waiting for message from 1 tag 7, "
            "at lua_scripts/x.lua:14");
  ASSERT_EQ(t.windows.size(), 1u);
  EXPECT_EQ(t.windows[0],
            "window 0 (allocate, am): access pscw; exposure none; target 1: lock none, queued 1, "
            "in flight 0, awaiting acks 0; lock waiters: 2");
  EXPECT_EQ(t.counters, "counters: packets_sent=3");
}

TEST(RankStateText, NoReply) {
  const RankStateText t = describe_rank_state(json{{"rank", 1}, {"state", "no reply"}});
  EXPECT_EQ(t.headline, "rank 1: no reply");
  EXPECT_TRUE(t.windows.empty());
  EXPECT_TRUE(t.counters.empty());
}

TEST(RankStateText, PartialAndUnknownFields) {
  const RankStateText t = describe_rank_state(
      json{{"rank", 2}, {"call", "fence"}, {"blocked", false}, {"window", 3}, {"epoch", 7}});
  EXPECT_EQ(t.headline, "rank 2: in fence (not blocked), window 3, epoch=7");
  EXPECT_EQ(describe_rank_state(json{{"rank", 4}}).headline, "rank 4: (no state reported)");
  EXPECT_EQ(describe_rank_state(json("weird")).headline, "rank ?: weird");
}

}  // namespace
}  // namespace reports
