// Which library calls poll on entry (call_polls, behind Engine::call_progress): the rule that
// keeps a rank serving its peers in every progress mode, and keeps costly polls off the
// calls a wait loop follows anyway.
#include <gtest/gtest.h>

#include "progress/engine.hpp"

namespace rma::progress {
namespace {

struct Call {
  bool sync;
  bool packets;
};
constexpr Call kCalls[] = {{false, false}, {false, true}, {true, false}, {true, true}};

TEST(CallPolls, WithoutAnAgentEveryCallPolls) {
  // calls mode, or async before its agent runs: a rank looping on calls that need no wait
  // must still answer its peers.
  for (ProgressMode m : {ProgressMode::calls, ProgressMode::async})
    for (bool cheap : {true, false})
      for (Call c : kCalls)
        EXPECT_TRUE(call_polls(m, false, false, cheap, c.sync, c.packets))
            << "mode " << static_cast<int>(m) << " cheap " << cheap << " sync " << c.sync;
}

TEST(CallPolls, SyncOnlyPollsInSynchronizationCallsAlone) {
  for (bool cheap : {true, false})
    for (Call c : kCalls)
      EXPECT_EQ(call_polls(ProgressMode::sync_only, false, false, cheap, c.sync, c.packets),
                c.sync);
}

TEST(CallPolls, AParkedAgentLeavesCheapPollsOfPacketSyncCallsToTheApplication) {
  for (Call c : kCalls) {
    EXPECT_EQ(call_polls(ProgressMode::async, true, true, true, c.sync, c.packets),
              c.sync && c.packets);
    // A poll that costs system calls (the fabric transport) is left to the wait loops and
    // the agent.
    EXPECT_FALSE(call_polls(ProgressMode::async, true, true, false, c.sync, c.packets));
    // A running agent polls for everyone.
    EXPECT_FALSE(call_polls(ProgressMode::async, true, false, true, c.sync, c.packets));
  }
}

}  // namespace
}  // namespace rma::progress
