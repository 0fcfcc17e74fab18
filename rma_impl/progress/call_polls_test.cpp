// Which library calls poll on entry (call_polls, behind Engine::call_progress): every call
// where nothing else polls for the rank, synchronization calls on packet windows while the
// agent is parked and a poll is cheap (paced by EntryPolls), and no call while the agent runs.
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
        EXPECT_EQ(call_polls(s, c.sync, c.packets), CallPoll::yes) << describe(s, c);
      }
}

TEST(CallPolls, SyncOnlyPollsInSynchronizationCallsAlone) {
  for (bool cheap : {true, false})
    for (Call c : kCalls) {
      const CallPollState s{.mode = ProgressMode::sync_only,
                            .agent_running = false,
                            .agent_parked = false,
                            .cheap_poll = cheap};
      EXPECT_EQ(call_polls(s, c.sync, c.packets), c.sync ? CallPoll::yes : CallPoll::no)
          << describe(s, c);
    }
}

TEST(CallPolls, AParkedAgentLeavesCheapPollsOfPacketSyncCallsToTheApplication) {
  for (Call c : kCalls) {
    const CallPollState parked{.mode = ProgressMode::async,
                               .agent_running = true,
                               .agent_parked = true,
                               .cheap_poll = true};
    EXPECT_EQ(call_polls(parked, c.sync, c.packets),
              c.sync && c.packets ? CallPoll::paced : CallPoll::no)
        << describe(parked, c);
    // A poll that costs system calls (the fabric transport) is left to the wait loops and
    // the agent.
    const CallPollState costly{.mode = ProgressMode::async,
                               .agent_running = true,
                               .agent_parked = true,
                               .cheap_poll = false};
    EXPECT_EQ(call_polls(costly, c.sync, c.packets), CallPoll::no) << describe(costly, c);
    // A running agent polls for everyone.
    const CallPollState running{.mode = ProgressMode::async,
                                .agent_running = true,
                                .agent_parked = false,
                                .cheap_poll = true};
    EXPECT_EQ(call_polls(running, c.sync, c.packets), CallPoll::no) << describe(running, c);
  }
}

// `polls` is the application thread's poll count as each call begins; a due call polls, so
// the next call sees the count moved.
TEST(EntryPolls, AnEpochLoopWhoseUnlockWaitsPollsInNeitherLockNorUnlock) {
  EntryPolls pace;
  std::uint64_t polls = 0;
  for (int epoch = 0; epoch < 100; ++epoch) {
    EXPECT_FALSE(pace.due(polls)) << "lock, epoch " << epoch;
    EXPECT_FALSE(pace.due(polls)) << "unlock, epoch " << epoch;
    polls += 3;  // the unlock's wait loop
  }
}

TEST(EntryPolls, CallsThatNeitherWaitNorPollPollEveryThirdCall) {
  EntryPolls pace;
  std::uint64_t polls = 0;
  int polled = 0;
  for (int call = 0; call < 300; ++call) {
    const bool due = pace.due(polls);
    EXPECT_EQ(due, call % 3 == 2) << "call " << call;
    if (due) {
      ++polls;
      ++polled;
    }
  }
  EXPECT_EQ(polled, 100);
}

TEST(EntryPolls, APollAnywhereStartsTheCountAgain) {
  EntryPolls pace;
  std::uint64_t polls = 7;
  EXPECT_FALSE(pace.due(polls));
  EXPECT_FALSE(pace.due(polls));
  ++polls;  // a test() loop, or a wait loop, polled in between
  EXPECT_FALSE(pace.due(polls));
  EXPECT_FALSE(pace.due(polls));
  EXPECT_TRUE(pace.due(polls));
}

}  // namespace
}  // namespace rma::progress
