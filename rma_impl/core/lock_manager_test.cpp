#include "core/lock_manager.hpp"

#include <gtest/gtest.h>

namespace rma::core {
namespace {

LockRequest req(int origin, LockType t) {
  return LockRequest{origin, t, {}};
}

std::vector<int> origins(const std::vector<LockRequest>& v) {
  std::vector<int> o;
  for (const auto& r : v) o.push_back(r.origin);
  return o;
}

TEST(LockManager, SharedLocksAreHeldTogether) {
  LockManager lm;
  EXPECT_TRUE(lm.request(req(1, LockType::shared)));
  EXPECT_TRUE(lm.request(req(2, LockType::shared)));
  EXPECT_TRUE(lm.holds(1));
  EXPECT_TRUE(lm.holds(2));
  EXPECT_EQ(lm.holders_text(), "shared by 1, 2");
}

TEST(LockManager, ExclusiveExcludesEverything) {
  LockManager lm;
  EXPECT_TRUE(lm.request(req(1, LockType::exclusive)));
  EXPECT_FALSE(lm.request(req(2, LockType::exclusive)));
  EXPECT_FALSE(lm.request(req(3, LockType::shared)));
  EXPECT_EQ(lm.waiters_text(), "exclusive 2, shared 3");
}

TEST(LockManager, ExclusiveAfterSharedWaitsForEveryHolder) {
  LockManager lm;
  lm.request(req(1, LockType::shared));
  lm.request(req(2, LockType::shared));
  EXPECT_FALSE(lm.request(req(3, LockType::exclusive)));
  EXPECT_TRUE(lm.release(1).empty());  // 2 still holds
  EXPECT_EQ(origins(lm.release(2)), std::vector<int>{3});
  EXPECT_TRUE(lm.holds(3));
}

TEST(LockManager, SharedAfterWaitingExclusiveDoesNotOvertake) {
  LockManager lm;
  lm.request(req(1, LockType::shared));
  EXPECT_FALSE(lm.request(req(2, LockType::exclusive)));
  // Compatible with the holder, but an exclusive request waits ahead of it.
  EXPECT_FALSE(lm.request(req(3, LockType::shared)));
  EXPECT_EQ(origins(lm.release(1)), std::vector<int>{2});
  EXPECT_FALSE(lm.holds(3));
  EXPECT_EQ(origins(lm.release(2)), std::vector<int>{3});
}

TEST(LockManager, GrantsFollowFifoOrder) {
  LockManager lm;
  lm.request(req(0, LockType::exclusive));
  for (int o : {4, 2, 3, 1}) lm.request(req(o, LockType::exclusive));
  std::vector<int> order;
  int holder = 0;
  for (int i = 0; i < 4; ++i) {
    auto g = lm.release(holder);
    ASSERT_EQ(g.size(), 1u);
    holder = g[0].origin;
    order.push_back(holder);
  }
  EXPECT_EQ(order, (std::vector<int>{4, 2, 3, 1}));
  EXPECT_TRUE(lm.release(holder).empty());
  EXPECT_TRUE(lm.idle());
}

TEST(LockManager, ReleaseGrantsEverySharedAtTheHeadThenStops) {
  LockManager lm;
  lm.request(req(0, LockType::exclusive));
  lm.request(req(1, LockType::shared));
  lm.request(req(2, LockType::shared));
  lm.request(req(3, LockType::exclusive));
  lm.request(req(4, LockType::shared));
  EXPECT_EQ(origins(lm.release(0)), (std::vector<int>{1, 2}));
  EXPECT_EQ(lm.waiters_text(), "exclusive 3, shared 4");
  EXPECT_TRUE(lm.release(1).empty());
  EXPECT_EQ(origins(lm.release(2)), std::vector<int>{3});
  EXPECT_EQ(origins(lm.release(3)), std::vector<int>{4});
}

TEST(LockManager, ReleaseByNonHolderChangesNothing) {
  LockManager lm;
  lm.request(req(1, LockType::exclusive));
  lm.request(req(2, LockType::exclusive));
  EXPECT_TRUE(lm.release(2).empty());  // waiting, not holding
  EXPECT_TRUE(lm.holds(1));
  EXPECT_EQ(lm.waiting(), 1u);
}

TEST(LockManager, HeldOpComesBackWithItsGrant) {
  LockManager lm;
  lm.request(req(1, LockType::exclusive));
  HeldPacket held;
  held.header.type = PacketType::put;
  held.payload = {std::byte{7}, std::byte{8}};
  std::vector<HeldPacket> v;
  v.push_back(std::move(held));
  EXPECT_FALSE(lm.request(LockRequest{2, LockType::exclusive, std::move(v)}));
  // What the origin sends while its request waits joins it, in order.
  ASSERT_NE(lm.waiting_request(2), nullptr);
  EXPECT_EQ(lm.waiting_request(1), nullptr);
  lm.waiting_request(2)->held.push_back(HeldPacket{});
  lm.waiting_request(2)->held.back().header.type = PacketType::unlock;
  auto g = lm.release(1);
  ASSERT_EQ(g.size(), 1u);
  ASSERT_EQ(g[0].held.size(), 2u);
  EXPECT_EQ(g[0].held[0].header.type, PacketType::put);
  EXPECT_EQ(g[0].held[0].payload.size(), 2u);
  EXPECT_EQ(g[0].held[1].header.type, PacketType::unlock);
  EXPECT_EQ(lm.waiting_request(2), nullptr);
}

}  // namespace
}  // namespace rma::core
