// AnswerPrefetch's decision from the times it is given (no clock here): off and on are fixed,
// adaptive asks early only for peers whose posts waited long, skips the request at one take
// in every kProbeEvery and times the post after it, and follows a peer whose lines come
// faster or slower later.
#include "shm/shm_answer_prefetch.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace rma::shm {
namespace {

using Mode = AnswerPrefetch::Mode;

// One round of a ping-pong with `peer`: a take, then the answer's post, timed when asked.
// Returns whether the take asked early for the line.
bool round(AnswerPrefetch& p, std::size_t peer, std::int64_t wait_ns) {
  const bool early = p.at_take(peer);
  if (p.timing(peer)) p.timed(peer, wait_ns);
  return early;
}

TEST(AnswerPrefetch, FixedModesNeverTime) {
  AnswerPrefetch p(2);
  p.set_mode(Mode::off);
  for (int i = 0; i < 200; ++i) {
    EXPECT_FALSE(p.at_take(1));
    EXPECT_FALSE(p.timing(1));
  }
  p.set_mode(Mode::on);
  for (int i = 0; i < 200; ++i) {
    EXPECT_TRUE(p.at_take(1));
    EXPECT_FALSE(p.timing(1));
  }
}

TEST(AnswerPrefetch, FirstPostIsTimedAndDecides) {
  AnswerPrefetch p(3);
  ASSERT_EQ(p.mode(), Mode::adaptive);
  EXPECT_TRUE(p.timing(1));
  EXPECT_TRUE(p.timing(2));
  p.timed(1, 170);  // far
  p.timed(2, 40);   // near
  EXPECT_TRUE(p.far(1));
  EXPECT_FALSE(p.far(2));
  EXPECT_FALSE(p.timing(1));
  EXPECT_TRUE(p.at_take(1));
  EXPECT_FALSE(p.at_take(2));
}

TEST(AnswerPrefetch, FarPeerIsProbedWithoutTheRequestOncePerPeriod) {
  AnswerPrefetch p(2);
  p.timed(1, 200);
  int early = 0, probes = 0;
  const int rounds = 10 * static_cast<int>(AnswerPrefetch::kProbeEvery);
  for (int i = 0; i < rounds; ++i) {
    const bool was_probe = !p.at_take(1);
    early += was_probe ? 0 : 1;
    if (p.timing(1)) {
      EXPECT_TRUE(was_probe) << "a timed post must follow a take that did not ask early";
      ++probes;
      p.timed(1, 200);
    }
  }
  EXPECT_EQ(probes, 10);
  EXPECT_EQ(early, rounds - 10);
}

TEST(AnswerPrefetch, FollowsAPeerThatMoves) {
  AnswerPrefetch p(2);
  p.timed(1, 40);
  const int period = static_cast<int>(AnswerPrefetch::kProbeEvery);
  // The lines start crossing slowly: a few probes later every take asks early.
  int rounds = 0;
  while (!p.far(1) && rounds < 20 * period) {
    round(p, 1, 180);
    ++rounds;
  }
  EXPECT_TRUE(p.far(1));
  EXPECT_LE(rounds, 8 * period);
  EXPECT_TRUE(round(p, 1, 180));
  // And back.
  rounds = 0;
  while (p.far(1) && rounds < 20 * period) {
    round(p, 1, 40);
    ++rounds;
  }
  EXPECT_FALSE(p.far(1));
  EXPECT_LE(rounds, 8 * period);
}

TEST(AnswerPrefetch, OnePreemptedPostDoesNotMakeANearPeerFar) {
  AnswerPrefetch p(2);
  p.timed(1, 40);
  const int period = static_cast<int>(AnswerPrefetch::kProbeEvery);
  for (int i = 0; i < period; ++i) round(p, 1, 5'000'000);  // one probe, 5 ms
  EXPECT_FALSE(p.far(1));
  for (int i = 0; i < 3 * period; ++i) round(p, 1, 40);
  EXPECT_FALSE(p.far(1));
}

TEST(AnswerPrefetch, PeersDecideApart) {
  AnswerPrefetch p(4);
  p.timed(1, 300);
  p.timed(2, 30);
  p.timed(3, 300);
  EXPECT_TRUE(p.far(1));
  EXPECT_FALSE(p.far(2));
  EXPECT_TRUE(p.far(3));
}

}  // namespace
}  // namespace rma::shm
