#include "core/epoch.hpp"

#include <gtest/gtest.h>

namespace rma::core {
namespace {

constexpr int kRanks = 4;
const std::vector<int> kGroup{1, 2};

ErrorClass cls(const Status& s) {
  return s.error_class();
}

TEST(Epochs, OpOutsideAnyEpochIsRmaSync) {
  Epochs e(0, kRanks);
  EXPECT_EQ(cls(e.can_access("put", 1, false)), ErrorClass::rma_sync);
}

TEST(Epochs, FenceOpensAnEpochAndNosucceedClosesIt) {
  Epochs e(0, kRanks);
  ASSERT_TRUE(e.can_fence(0, false));
  e.did_fence(0);
  EXPECT_EQ(e.access(), Access::fence_open);
  EXPECT_TRUE(e.can_access("put", 3, false));
  e.did_access();
  EXPECT_EQ(e.access(), Access::fence);
  ASSERT_TRUE(e.can_fence(assert_nosucceed, true));
  e.did_fence(assert_nosucceed);
  EXPECT_EQ(e.access(), Access::none);
  EXPECT_EQ(cls(e.can_access("put", 3, false)), ErrorClass::rma_sync);
}

TEST(Epochs, NoprecedeWithPendingOpsIsRmaSync) {
  Epochs e(0, kRanks);
  e.did_fence(0);
  EXPECT_EQ(cls(e.can_fence(assert_noprecede, true)), ErrorClass::rma_sync);
  EXPECT_TRUE(e.can_fence(assert_noprecede, false));
}

TEST(Epochs, FenceRejectsNocheck) {
  Epochs e(0, kRanks);
  EXPECT_EQ(cls(e.can_fence(assert_nocheck, false)), ErrorClass::assert_);
}

TEST(Epochs, OpAfterLockUnlockInsideAFenceEpochIsRmaSync) {
  Epochs e(0, kRanks);
  e.did_fence(0);
  ASSERT_TRUE(e.can_lock(1, 0, false));
  e.did_lock(1, LockType::shared, 0);
  ASSERT_TRUE(e.can_unlock(1));
  e.did_unlock(1);
  EXPECT_EQ(e.access(), Access::none);
  EXPECT_EQ(cls(e.can_access("put", 1, false)), ErrorClass::rma_sync);
}

TEST(Epochs, LockAfterFenceWithOpsIsRmaSync) {
  Epochs e(0, kRanks);
  e.did_fence(0);
  e.did_access();
  EXPECT_EQ(cls(e.can_lock(1, 0, false)), ErrorClass::rma_sync);
  EXPECT_EQ(cls(e.can_lock_all(0, false)), ErrorClass::rma_sync);
  EXPECT_EQ(cls(e.can_start(kGroup, 0)), ErrorClass::rma_sync);
}

TEST(Epochs, UnlockWithoutLockIsRmaSync) {
  Epochs e(0, kRanks);
  EXPECT_EQ(cls(e.can_unlock(1)), ErrorClass::rma_sync);
  e.did_lock(2, LockType::exclusive, 0);
  EXPECT_EQ(cls(e.can_unlock(1)), ErrorClass::rma_sync);
  EXPECT_TRUE(e.can_unlock(2));
}

TEST(Epochs, LockingATargetTwiceIsRmaSync) {
  Epochs e(0, kRanks);
  e.did_lock(1, LockType::exclusive, 0);
  EXPECT_EQ(cls(e.can_lock(1, 0, false)), ErrorClass::rma_sync);
  EXPECT_TRUE(e.can_lock(2, 0, false));  // other targets are fine
}

TEST(Epochs, LockOnNoLocksWindowIsRmaSync) {
  Epochs e(0, kRanks);
  EXPECT_EQ(cls(e.can_lock(1, 0, true)), ErrorClass::rma_sync);
  EXPECT_EQ(cls(e.can_lock_all(0, true)), ErrorClass::rma_sync);
}

TEST(Epochs, LockRejectsFenceAsserts) {
  Epochs e(0, kRanks);
  EXPECT_EQ(cls(e.can_lock(1, assert_noput, false)), ErrorClass::assert_);
  EXPECT_TRUE(e.can_lock(1, assert_nocheck, false));
}

TEST(Epochs, LockInsideStartEpochIsRmaSync) {
  Epochs e(0, kRanks);
  ASSERT_TRUE(e.can_start(kGroup, 0));
  e.did_start(kGroup, 0);
  EXPECT_EQ(cls(e.can_lock(1, 0, false)), ErrorClass::rma_sync);
  EXPECT_EQ(cls(e.can_lock_all(0, false)), ErrorClass::rma_sync);
  EXPECT_EQ(cls(e.can_fence(0, false)), ErrorClass::rma_sync);
}

TEST(Epochs, StartInsideStartIsRmaSync) {
  Epochs e(0, kRanks);
  e.did_start(kGroup, 0);
  EXPECT_EQ(cls(e.can_start(kGroup, 0)), ErrorClass::rma_sync);
}

TEST(Epochs, CompleteWithoutStartIsRmaSync) {
  Epochs e(0, kRanks);
  EXPECT_EQ(cls(e.can_complete()), ErrorClass::rma_sync);
}

TEST(Epochs, StartGroupLimitsTargets) {
  Epochs e(0, kRanks);
  e.did_start(kGroup, 0);
  EXPECT_TRUE(e.can_access("put", 1, false));
  EXPECT_EQ(cls(e.can_access("put", 3, false)), ErrorClass::rma_sync);
  EXPECT_TRUE(e.can_access("put", proc_null, false));
  ASSERT_TRUE(e.can_complete());
  e.did_complete();
  EXPECT_EQ(e.access(), Access::none);
}

TEST(Epochs, PostWaitPairs) {
  Epochs e(0, kRanks);
  EXPECT_EQ(cls(e.can_wait("wait")), ErrorClass::rma_sync);
  ASSERT_TRUE(e.can_post(kGroup, 0));
  e.did_post(kGroup, 0);
  EXPECT_EQ(cls(e.can_post(kGroup, 0)), ErrorClass::rma_sync);
  EXPECT_EQ(cls(e.can_fence(0, false)), ErrorClass::rma_sync);
  ASSERT_TRUE(e.can_wait("wait"));
  e.did_wait();
  EXPECT_EQ(e.exposure(), Exposure::none);
}

TEST(Epochs, PostAndStartTogether) {
  Epochs e(0, kRanks);
  e.did_post(kGroup, 0);
  ASSERT_TRUE(e.can_start(kGroup, 0));
  e.did_start(kGroup, 0);
  EXPECT_EQ(e.access(), Access::pscw);
  EXPECT_EQ(e.exposure(), Exposure::post);
}

TEST(Epochs, FreeWhileLockedOrInsidePscwIsRmaSync) {
  Epochs e(0, kRanks);
  EXPECT_TRUE(e.can_free());
  e.did_lock(1, LockType::shared, 0);
  EXPECT_EQ(cls(e.can_free()), ErrorClass::rma_sync);
  e.did_unlock(1);
  e.did_start(kGroup, 0);
  EXPECT_EQ(cls(e.can_free()), ErrorClass::rma_sync);
  e.did_complete();
  e.did_post(kGroup, 0);
  EXPECT_EQ(cls(e.can_free()), ErrorClass::rma_sync);
  e.did_wait();
  EXPECT_TRUE(e.can_free());
  e.did_fence(0);  // a fence with no ops after it leaves nothing open
  EXPECT_TRUE(e.can_free());
}

TEST(Epochs, FlushNeedsAPassiveEpochCoveringTheTarget) {
  Epochs e(0, kRanks);
  EXPECT_EQ(cls(e.can_flush("flush", 1)), ErrorClass::rma_sync);
  e.did_lock(1, LockType::shared, 0);
  EXPECT_TRUE(e.can_flush("flush", 1));
  EXPECT_EQ(cls(e.can_flush("flush", 2)), ErrorClass::rma_sync);
  e.did_unlock(1);
  e.did_lock_all(0);
  EXPECT_TRUE(e.can_flush("flush", 2));
}

TEST(Epochs, RequestBasedOpsNeedPassiveTarget) {
  Epochs e(0, kRanks);
  e.did_fence(0);
  EXPECT_EQ(cls(e.can_access("rput", 1, true)), ErrorClass::rma_sync);
  e.did_fence(assert_nosucceed);
  e.did_lock_all(0);
  EXPECT_TRUE(e.can_access("rput", 1, true));
}

TEST(Epochs, LockAllUnlockAll) {
  Epochs e(0, kRanks);
  EXPECT_EQ(cls(e.can_unlock_all()), ErrorClass::rma_sync);
  e.did_lock_all(assert_nocheck);
  EXPECT_TRUE(e.nocheck(3));
  EXPECT_EQ(cls(e.can_lock_all(0, false)), ErrorClass::rma_sync);
  EXPECT_EQ(cls(e.can_unlock(1)), ErrorClass::rma_sync);
  EXPECT_EQ(cls(e.can_lock(1, 0, false)), ErrorClass::rma_sync);
  e.did_unlock_all();
  EXPECT_EQ(e.access(), Access::none);
}

TEST(Epochs, LockOnProcNullOpensAnEpochThatUnlockCloses) {
  Epochs e(0, kRanks);
  ASSERT_TRUE(e.can_lock(proc_null, 0, false));
  e.did_lock(proc_null, LockType::shared, 0);
  EXPECT_EQ(e.access(), Access::lock);
  EXPECT_TRUE(e.can_access("put", proc_null, false));
  EXPECT_EQ(cls(e.can_access("put", 1, false)), ErrorClass::rma_sync);
  EXPECT_EQ(cls(e.can_lock(proc_null, 0, false)), ErrorClass::rma_sync);
  ASSERT_TRUE(e.can_unlock(proc_null));
  e.did_unlock(proc_null);
  EXPECT_EQ(e.access(), Access::none);
  EXPECT_TRUE(e.can_free());
}

TEST(Epochs, ErrorMessagesNameCallWindowAndTarget) {
  Epochs e(7, kRanks);
  Status s = e.can_unlock(2);
  EXPECT_NE(s.message().find("unlock"), std::string::npos);
  EXPECT_NE(s.message().find("window 7"), std::string::npos);
  EXPECT_NE(s.message().find("target 2"), std::string::npos);
}

}  // namespace
}  // namespace rma::core
