// The progress agent over the shm transport, ranks as threads: what it does while packets
// wait for the engine lock that a call of the application holds.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstddef>
#include <string>
#include <thread>

#include "progress/call_tracker.hpp"
#include "progress/engine.hpp"
#include "testing/thread_job.hpp"

namespace rma::shm {
namespace {

std::uint64_t rings(const progress::Transport& t) {
  Counters c;
  t.add_counters(c);
  return c.transport["doorbell_rings"];
}

// A call holds the lock outside any wait loop while a peer's packets arrive. The agent can
// take none of them; it must back off without registering as a sleeper, for a sleeper is
// what makes a sender ring (a system call on every packet it catches). Each turn of the
// agent's loop used to pass through the doorbell's sleep_prepare, and a stream of packets
// caught it there: 179-300 rings in 2000 packets, in five of six runs on two cores. Now at
// most the one ring that may have been under way when the stream began.
TEST(ShmAgent, PacketsWaitingForACallsLockMakeNoSenderRing) {
  auto made = testing::shm_transports(2, "shm_agent_test." + std::to_string(::getpid()));
  ASSERT_TRUE(made) << made.status().message();
  progress::Transport& sender = *made.value()[1];
  progress::CallTracker calls;
  progress::Engine e(std::move(made.value()[0]), ProgressMode::async, calls);
  e.start_agent();
  const progress::PacketHeader h = progress::make_header(PacketType::barrier);
  const std::byte payload[8]{};
  {
    progress::EngineLock call(e.mutex());
    // The first packet may find the agent asleep and ring it; wait until it woke (1000
    // turns in a row with no sleeper), within a bound: an agent that never wakes fails here.
    ASSERT_TRUE(sender.try_send(0, h, payload));
    int quiet = 0;
    for (int turn = 0; quiet < 1000 && turn < 10'000'000; ++turn) {
      quiet = e.transport().has_sleepers() ? 0 : quiet + 1;
      std::this_thread::yield();
    }
    ASSERT_EQ(quiet, 1000) << "the agent stayed asleep after the first packet's ring";
    const std::uint64_t before = rings(sender);
    for (int i = 0; i < 2000; ++i) {
      ASSERT_TRUE(sender.try_send(0, h, payload));
      std::this_thread::yield();
    }
    EXPECT_LE(rings(sender) - before, 1u);
  }
  e.stop_agent();
}

}  // namespace
}  // namespace rma::shm
