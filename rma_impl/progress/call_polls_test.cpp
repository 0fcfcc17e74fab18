// Which library calls poll on entry (call_polls, behind Engine::call_progress): every call
// where nothing else polls for the rank, synchronization calls on packet windows while the
// agent is parked and a poll is cheap, and no call while the agent runs.
#include <gtest/gtest.h>

#include "progress/engine.hpp"

namespace rma::progress {
namespace {

struct Call {
  bool sync;
  bool packets;
};
constexpr Call kCalls[] = {{false, false}, {false, true}, {true, false}, {true, true}};

std::string describe(const CallPollState& s, Call c) {
  return "mode " + std::to_string(static_cast<int>(s.mode)) + " agent running " +
         std::to_string(s.agent_running) + " parked " + std::to_string(s.agent_parked) +
         " cheap poll " + std::to_string(s.cheap_poll) + ", sync call " + std::to_string(c.sync) +
         " packet window " + std::to_string(c.packets);
}

TEST(CallPolls, WithoutAnAgentEveryCallPolls) {
  // calls mode, or async before its agent runs: a rank looping on calls that need no wait
  // must still answer its peers.
  for (ProgressMode m : {ProgressMode::calls, ProgressMode::async})
    for (bool cheap : {true, false})
      for (Call c : kCalls) {
        const CallPollState s{
            .mode = m, .agent_running = false, .agent_parked = false, .cheap_poll = cheap};
        EXPECT_TRUE(call_polls(s, c.sync, c.packets)) << describe(s, c);
      }
}

TEST(CallPolls, SyncOnlyPollsInSynchronizationCallsAlone) {
  for (bool cheap : {true, false})
    for (Call c : kCalls) {
      const CallPollState s{.mode = ProgressMode::sync_only,
                            .agent_running = false,
                            .agent_parked = false,
                            .cheap_poll = cheap};
      EXPECT_EQ(call_polls(s, c.sync, c.packets), c.sync) << describe(s, c);
    }
}

TEST(CallPolls, AParkedAgentLeavesCheapPollsOfPacketSyncCallsToTheApplication) {
  for (Call c : kCalls) {
    const CallPollState parked{.mode = ProgressMode::async,
                               .agent_running = true,
                               .agent_parked = true,
                               .cheap_poll = true};
    EXPECT_EQ(call_polls(parked, c.sync, c.packets), c.sync && c.packets) << describe(parked, c);
    // A poll that costs system calls (the fabric transport) is left to the wait loops and
    // the agent.
    const CallPollState costly{.mode = ProgressMode::async,
                               .agent_running = true,
                               .agent_parked = true,
                               .cheap_poll = false};
    EXPECT_FALSE(call_polls(costly, c.sync, c.packets)) << describe(costly, c);
    // A running agent polls for everyone.
    const CallPollState running{.mode = ProgressMode::async,
                                .agent_running = true,
                                .agent_parked = false,
                                .cheap_poll = true};
    EXPECT_FALSE(call_polls(running, c.sync, c.packets)) << describe(running, c);
  }
}

}  // namespace
}  // namespace rma::progress
