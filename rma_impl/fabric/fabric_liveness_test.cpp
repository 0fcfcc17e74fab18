// Liveness (fabric_liveness.hpp): a quiet peer is probed, a peer that answers stays alive,
// one that answers nothing for the timeout is gone; the environment knob and its errors.
#include "fabric/fabric_liveness.hpp"

#include <stdlib.h>

#include <gtest/gtest.h>

namespace rma::fabric {
namespace {

using namespace std::chrono_literals;
using Clock = Liveness::Clock;

TEST(Liveness, ProbesAQuietPeerAndGivesUpOnlyAfterTheTimeout) {
  const auto t0 = Clock::now();
  Liveness l(4000ms, t0);
  EXPECT_EQ(l.interval(), 1000ms);
  EXPECT_EQ(l.check(t0 + 500ms), Liveness::alive);  // heard from recently enough
  EXPECT_EQ(l.check(t0 + 1000ms), Liveness::probe);
  EXPECT_EQ(l.check(t0 + 1500ms), Liveness::alive);  // probed, not yet due again
  EXPECT_EQ(l.check(t0 + 2000ms), Liveness::probe);
  EXPECT_EQ(l.check(t0 + 3999ms), Liveness::probe);
  EXPECT_EQ(l.check(t0 + 4000ms), Liveness::gone);
}

TEST(Liveness, AReplyKeepsThePeerAlive) {
  const auto t0 = Clock::now();
  Liveness l(2000ms, t0);
  for (int i = 1; i <= 20; ++i) {
    const auto t = t0 + i * 600ms;
    EXPECT_NE(l.check(t), Liveness::gone) << i;
    l.heard(t + 1ms);  // the reply to the probe, or any message
  }
}

TEST(Liveness, APeerLongUnusedGetsHalfTheTimeoutToReply) {
  const auto t0 = Clock::now();
  Liveness l(2000ms, t0);
  const auto t = t0 + 600s;  // nothing exchanged for ten minutes: not a reason to give up
  EXPECT_EQ(l.check(t), Liveness::probe);
  EXPECT_NE(l.check(t + 999ms), Liveness::gone);
  EXPECT_EQ(l.check(t + 1000ms), Liveness::gone);
}

TEST(Liveness, OffNeverGivesUpButStillProbes) {
  const auto t0 = Clock::now();
  Liveness l(0ms, t0);
  EXPECT_FALSE(l.enabled());
  EXPECT_EQ(l.check(t0 + 1s), Liveness::probe);
  EXPECT_EQ(l.check(t0 + 1h), Liveness::probe);
  EXPECT_EQ(l.check(t0 + 2h), Liveness::probe);
}

TEST(Liveness, ShortTimeoutsProbeAtLeastEveryTenthOfASecond) {
  EXPECT_EQ(Liveness(200ms).interval(), 100ms);
  EXPECT_EQ(Liveness(60s).interval(), 1000ms);
}

TEST(Liveness, TimeoutFromTheEnvironment) {
  ::unsetenv("RMA_LIVENESS_S");
  ASSERT_TRUE(liveness_timeout_from_env());
  EXPECT_EQ(liveness_timeout_from_env().value(), Liveness::kDefaultTimeout);
  ::setenv("RMA_LIVENESS_S", "2.5", 1);
  EXPECT_EQ(liveness_timeout_from_env().value(), 2500ms);
  ::setenv("RMA_LIVENESS_S", "0", 1);
  EXPECT_EQ(liveness_timeout_from_env().value(), 0ms);
  for (const char* bad : {"soon", "-1", "3s", "1e9"}) {
    ::setenv("RMA_LIVENESS_S", bad, 1);
    auto r = liveness_timeout_from_env();
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.status().error_class(), ErrorClass::arg);
    EXPECT_NE(r.status().message().find("RMA_LIVENESS_S"), std::string::npos);
  }
  ::unsetenv("RMA_LIVENESS_S");
}

}  // namespace
}  // namespace rma::fabric
