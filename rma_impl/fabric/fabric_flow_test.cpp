// Credits and ordering of the fabric transport, without libfabric.
#include "fabric/fabric_flow.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace rma::fabric {
namespace {

TEST(InOrder, EarlyMessagesWaitForTheGap) {
  InOrder<int> o;
  std::deque<int> out;
  EXPECT_TRUE(o.push(1, 11, out));
  EXPECT_TRUE(o.push(2, 12, out));
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(o.held(), 2u);
  EXPECT_TRUE(o.push(0, 10, out));
  EXPECT_EQ(out, (std::deque<int>{10, 11, 12}));
  EXPECT_EQ(o.held(), 0u);
  EXPECT_EQ(o.reordered(), 2u);
}

TEST(InOrder, DuplicatesAreRefused) {
  InOrder<int> o;
  std::deque<int> out;
  EXPECT_TRUE(o.push(0, 1, out));
  EXPECT_FALSE(o.push(0, 1, out));
  EXPECT_TRUE(o.push(2, 3, out));
  EXPECT_FALSE(o.push(2, 3, out));
  EXPECT_EQ(out.size(), 1u);
}

TEST(InOrder, SequenceNumbersWrapAround) {
  InOrder<std::uint32_t> o(0xfffffffeu);
  std::deque<std::uint32_t> out;
  EXPECT_TRUE(o.push(0, 2, out));  // after the wrap: early
  EXPECT_TRUE(o.push(0xffffffffu, 1, out));
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(o.push(0xfffffffeu, 0, out));
  EXPECT_EQ(out, (std::deque<std::uint32_t>{0, 1, 2}));
  EXPECT_FALSE(o.push(0xffffffffu, 1, out));  // behind: a duplicate
}

TEST(Credits, TakeUntilEmptyThenReturned) {
  Credits c(4);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(c.take());
  EXPECT_FALSE(c.take());
  c.returned(2);
  EXPECT_TRUE(c.take());
  c.refund();
  EXPECT_EQ(c.available(), 2u);
}

TEST(Credits, ExplicitReturnAtHalfTheWindow) {
  Credits c(8);
  for (int i = 0; i < 3; ++i) c.consumed();
  EXPECT_FALSE(c.explicit_due());
  c.consumed();
  EXPECT_TRUE(c.explicit_due());
  EXPECT_EQ(c.piggyback(), 4);
  EXPECT_FALSE(c.explicit_due());
  c.unreturn(4);
  EXPECT_EQ(c.owed(), 4u);
}

// Two ranks with finite receive buffers exchange messages in random schedules. A sender
// sends only with a credit; a receiver consumes when it feels like it, returning credits on
// its own messages or explicitly at half a window. Checked: no message ever finds the
// receiver without a posted buffer (data + the two spare buffers for credit messages), and
// everything sent is eventually received (no credit deadlock).
TEST(Credits, RandomSchedulesNeverOverrunTheReceiverAndNeverDeadlock) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 200; ++trial) {
    const std::uint32_t window = 2 + rng() % 7;
    struct Msg {
      bool credit_only;
      std::uint8_t credits;
    };
    struct Side {
      Credits cr;
      std::deque<Msg> inbox;  // arrived, not consumed
      int to_send = 0;
      int received = 0;
    };
    Side side[2] = {{Credits(window), {}, 300, 0}, {Credits(window), {}, 300, 0}};
    const std::uint32_t buffers = receive_buffers(1, window);
    for (int step = 0; step < 100000; ++step) {
      const int me = static_cast<int>(rng() % 2);
      Side& a = side[me];
      Side& b = side[1 - me];
      switch (rng() % 3) {
        case 0:  // try to send a data message
          if (a.to_send > 0 && a.cr.take()) {
            b.inbox.push_back({false, a.cr.piggyback()});
            --a.to_send;
          }
          break;
        case 1:  // consume one message
          if (!a.inbox.empty()) {
            const Msg m = a.inbox.front();
            a.inbox.pop_front();
            a.cr.returned(m.credits);
            if (!m.credit_only) {
              a.cr.consumed();
              ++a.received;
            }
          }
          break;
        default:  // return credits explicitly when due
          if (a.cr.explicit_due()) b.inbox.push_back({true, a.cr.piggyback()});
          break;
      }
      ASSERT_LE(b.inbox.size(), buffers) << "trial " << trial << " window " << window;
      if (side[0].received == 300 && side[1].received == 300) break;
    }
    EXPECT_EQ(side[0].received, 300) << "trial " << trial;
    EXPECT_EQ(side[1].received, 300) << "trial " << trial;
  }
}

}  // namespace
}  // namespace rma::fabric
