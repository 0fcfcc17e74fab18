// The fabric direct path end to end (ranks as threads, real runtimes over tcp;ofi_rxm, or
// RMA_TEST_PROVIDER): native operations move the data, synchronization sends no RMA
// packet, and what the provider cannot do natively goes to the am slots, counted.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include "fabric/fabric_win.hpp"
#include "testing/thread_job.hpp"

namespace rma {
namespace {

using testing::run_job;

RuntimeConfig direct_config() {
  const char* p = std::getenv("RMA_TEST_PROVIDER");
  RuntimeConfig c;
  c.backend = "fabric";
  c.provider = p && *p ? p : "tcp;ofi_rxm";
  c.default_path = Path::direct;
  return c;
}

std::uint64_t direct_count(const Counters& c, DirectOp d) {
  return c.direct[index(d)];
}

TEST(FabricDirect, LockPutUnlockIsOneControlMessageEachWayAndNoPacket) {
  // A small put in an epoch that is the rank's only lock travels with the lock request and
  // the release; the target answers once it is applied.
  ASSERT_TRUE(run_job(2, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 64});
    ASSERT_TRUE(w) << w.status().to_string();
    Window& win = *w.value();
    ASSERT_EQ(win.path(), Path::direct);
    std::uint64_t v = 0xabcdef0123456789ull;
    const Counters before = rt.counters();
    ASSERT_TRUE(rt.barrier());
    if (rt.rank() == 0) {
      ASSERT_TRUE(win.lock(LockType::exclusive, 1));
      ASSERT_TRUE(win.put(&v, 1, Dtype::u64, 1, 8));
      ASSERT_TRUE(win.unlock(1));
    }
    ASSERT_TRUE(rt.barrier());
    const Counters d = rt.counters() - before;
    EXPECT_EQ(d.rma_messages(), 0u);
    if (rt.rank() == 0) {
      EXPECT_EQ(direct_count(d, DirectOp::put), 1u);
      EXPECT_EQ(direct_count(d, DirectOp::sync_word), 1u);  // lock request + put + release
      EXPECT_EQ(direct_count(d, DirectOp::am_fallback), 0u);
    } else {
      EXPECT_EQ(direct_count(d, DirectOp::sync_word), 1u);  // `released`
      std::uint64_t got;
      std::memcpy(&got, static_cast<std::byte*>(win.base()) + 8, 8);
      EXPECT_EQ(got, v);
    }
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, LargerPutInALockEpochIsANativeWriteAfterTheGrant) {
  ASSERT_TRUE(run_job(2, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 16384});
    ASSERT_TRUE(w) << w.status().to_string();
    Window& win = *w.value();
    std::vector<std::uint8_t> v(8192);  // above what travels with the lock request
    std::iota(v.begin(), v.end(), std::uint8_t{3});
    const Counters before = rt.counters();
    ASSERT_TRUE(rt.barrier());
    if (rt.rank() == 0) {
      ASSERT_TRUE(win.lock(LockType::exclusive, 1));
      ASSERT_TRUE(win.put(v.data(), v.size(), Dtype::u8, 1, 0));
      ASSERT_TRUE(win.unlock(1));
    }
    ASSERT_TRUE(rt.barrier());
    const Counters d = rt.counters() - before;
    EXPECT_EQ(d.rma_messages(), 0u);
    if (rt.rank() == 0) {
      EXPECT_EQ(direct_count(d, DirectOp::put), 1u);
      EXPECT_EQ(direct_count(d, DirectOp::sync_word), 2u);  // lock request, release
    } else {
      EXPECT_EQ(direct_count(d, DirectOp::sync_word), 1u);  // the grant
      EXPECT_EQ(std::memcmp(win.base(), v.data(), v.size()), 0);
    }
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, DeferredPutWaitsForALockTheTargetHolds) {
  // Rank 1 holds its own window exclusively while rank 0's lock-put-unlock arrives: the put
  // waits at the target in the lock manager's queue and lands only after rank 1 unlocks.
  ASSERT_TRUE(run_job(2, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 64});
    ASSERT_TRUE(w) << w.status().to_string();
    Window& win = *w.value();
    std::memset(win.base(), 0, 64);
    ASSERT_TRUE(rt.barrier());
    std::uint64_t token = 1, v = 77;
    if (rt.rank() == 1) {
      ASSERT_TRUE(win.lock(LockType::exclusive, 1));
      ASSERT_TRUE(rt.send(0, &token, sizeof token, 5));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));  // no library call
      std::uint64_t now;
      std::memcpy(&now, win.base(), 8);
      EXPECT_EQ(now, 0u) << "the put landed while the target held its lock";
      ASSERT_TRUE(win.unlock(1));
    } else {
      ASSERT_TRUE(rt.recv(1, &token, sizeof token, 5));
      ASSERT_TRUE(win.lock(LockType::exclusive, 1));
      ASSERT_TRUE(win.put(&v, 1, Dtype::u64, 1, 0));
      ASSERT_TRUE(win.unlock(1));
    }
    ASSERT_TRUE(rt.barrier());
    if (rt.rank() == 1) {
      std::uint64_t got;
      std::memcpy(&got, win.base(), 8);
      EXPECT_EQ(got, v);
    }
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, DeferredEpochWithAFlushAndMoreOps) {
  // The kept put travels with the lock request the flush makes; the next ops are native.
  ASSERT_TRUE(run_job(2, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 64});
    ASSERT_TRUE(w) << w.status().to_string();
    Window& win = *w.value();
    std::uint64_t a = 11, b = 22, c = 0;
    ASSERT_TRUE(rt.barrier());
    if (rt.rank() == 0) {
      ASSERT_TRUE(win.lock(LockType::shared, 1));
      ASSERT_TRUE(win.put(&a, 1, Dtype::u64, 1, 0));
      ASSERT_TRUE(win.flush(1));
      ASSERT_TRUE(win.put(&b, 1, Dtype::u64, 1, 8));
      ASSERT_TRUE(win.get(&c, 1, Dtype::u64, 1, 0));
      ASSERT_TRUE(win.unlock(1));
      EXPECT_EQ(c, a);
    }
    ASSERT_TRUE(rt.barrier());
    if (rt.rank() == 1) {
      std::uint64_t got[2];
      std::memcpy(got, win.base(), 16);
      EXPECT_EQ(got[0], a);
      EXPECT_EQ(got[1], b);
    }
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, LockGetUnlockIsOneControlMessageEachWay) {
  // A small get alone in an epoch travels with the lock request; its data comes back in the
  // target's `released` answer. A second epoch converts on a flush: the answer then comes
  // with the grant.
  ASSERT_TRUE(run_job(2, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 64});
    ASSERT_TRUE(w) << w.status().to_string();
    Window& win = *w.value();
    const std::uint64_t mine[2] = {0x1111 + static_cast<std::uint64_t>(rt.rank()), 0x2222};
    std::memcpy(win.base(), mine, sizeof mine);
    const Counters before = rt.counters();
    ASSERT_TRUE(rt.barrier());
    if (rt.rank() == 0) {
      std::uint64_t got = 0;
      ASSERT_TRUE(win.lock(LockType::shared, 1));
      ASSERT_TRUE(win.get(&got, 1, Dtype::u64, 1, 0));
      ASSERT_TRUE(win.unlock(1));
      EXPECT_EQ(got, 0x1112u);
      const Counters d = rt.counters() - before;
      EXPECT_EQ(d.rma_messages(), 0u);
      EXPECT_EQ(direct_count(d, DirectOp::get), 1u);
      EXPECT_EQ(direct_count(d, DirectOp::sync_word), 1u);
      std::uint64_t two[2] = {};
      ASSERT_TRUE(win.lock(LockType::exclusive, 1));
      ASSERT_TRUE(win.get(&two[0], 1, Dtype::u64, 1, 8));
      ASSERT_TRUE(win.flush(1));
      EXPECT_EQ(two[0], 0x2222u);
      ASSERT_TRUE(win.get(&two[1], 1, Dtype::u64, 1, 0));
      ASSERT_TRUE(win.unlock(1));
      EXPECT_EQ(two[1], 0x1112u);
    }
    ASSERT_TRUE(rt.barrier());
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, FenceRingOfNativeAccumulates) {
  constexpr int kEpochs = 10;
  ASSERT_TRUE(run_job(4, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 8});
    ASSERT_TRUE(w);
    Window& win = *w.value();
    const int right = (rt.rank() + 1) % rt.size();
    const int left = (rt.rank() + rt.size() - 1) % rt.size();
    std::int64_t mine = rt.rank() + 1;
    const Counters before = rt.counters();
    ASSERT_TRUE(win.fence());
    for (int e = 0; e < kEpochs; ++e) {
      ASSERT_TRUE(win.accumulate(&mine, 1, Dtype::i64, right, 0, Op::sum));
      ASSERT_TRUE(win.fence());
      // Complete at every fence. (The barrier keeps the next epoch's accumulate from racing
      // this load, which MPI would call a conflict.)
      std::int64_t got;
      std::memcpy(&got, win.base(), 8);
      EXPECT_EQ(got, (e + 1) * (left + 1)) << "epoch " << e;
      ASSERT_TRUE(rt.barrier());
    }
    const Counters d = rt.counters() - before;
    EXPECT_EQ(d.rma_messages(), 0u);
    EXPECT_EQ(direct_count(d, DirectOp::accumulate), static_cast<std::uint64_t>(kEpochs));
    ASSERT_TRUE(win.fence(assert_nosucceed));
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, OneMebibytePutAndGetBack) {
  constexpr std::size_t kBytes = 1 << 20;
  ASSERT_TRUE(run_job(2, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = kBytes});
    ASSERT_TRUE(w);
    Window& win = *w.value();
    std::vector<std::uint8_t> data(kBytes), back(kBytes, 0);
    for (std::size_t i = 0; i < kBytes; ++i) data[i] = static_cast<std::uint8_t>(i * 31 + 7);
    if (rt.rank() == 0) {
      ASSERT_TRUE(win.lock(LockType::exclusive, 1));
      ASSERT_TRUE(win.put(data.data(), kBytes, Dtype::u8, 1, 0));
      ASSERT_TRUE(win.flush(1));
      ASSERT_TRUE(win.get(back.data(), kBytes, Dtype::u8, 1, 0));
      ASSERT_TRUE(win.unlock(1));
      EXPECT_EQ(back, data);
    }
    ASSERT_TRUE(rt.barrier());
    if (rt.rank() == 1) {
      EXPECT_EQ(std::memcmp(win.base(), data.data(), kBytes), 0);
    }
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, ExclusiveLocksSerializeReadModifyWriteFromFourRanks) {
  constexpr int kRounds = 30;
  ASSERT_TRUE(run_job(4, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 16});
    ASSERT_TRUE(w);
    Window& win = *w.value();
    for (int i = 0; i < kRounds; ++i) {
      // A non-atomic increment: only the exclusive lock keeps it from losing updates.
      std::int64_t v = 0, one = 1, old = 0;
      ASSERT_TRUE(win.lock(LockType::exclusive, 0));
      ASSERT_TRUE(win.get(&v, 1, Dtype::i64, 0, 0));
      ASSERT_TRUE(win.flush(0));
      ++v;
      ASSERT_TRUE(win.put(&v, 1, Dtype::i64, 0, 0));
      ASSERT_TRUE(win.unlock(0));
      ASSERT_TRUE(win.lock(LockType::shared, 0));
      ASSERT_TRUE(win.fetch_and_op(&one, &old, Dtype::i64, 0, 8, Op::sum));
      ASSERT_TRUE(win.unlock(0));
      EXPECT_GE(old, 0);
    }
    ASSERT_TRUE(win.fence());
    if (rt.rank() == 0) {
      std::int64_t got[2];
      std::memcpy(got, win.base(), 16);
      EXPECT_EQ(got[0], 4 * kRounds);
      EXPECT_EQ(got[1], 4 * kRounds);
    }
    ASSERT_TRUE(win.fence(assert_nosucceed));
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, ExclusiveLocksOnEveryTargetInOneOrderDoNotDeadlock) {
  // Every rank locks every rank (itself included) in the order 0..n-1 before its first op:
  // locks must be acquired in that order, not at the first op.
  ASSERT_TRUE(run_job(3, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 8 * 3, .disp_unit = 8});
    ASSERT_TRUE(w);
    Window& win = *w.value();
    std::int64_t mine = 1000 + rt.rank();
    for (int t = 0; t < rt.size(); ++t) ASSERT_TRUE(win.lock(LockType::exclusive, t));
    for (int t = 0; t < rt.size(); ++t) ASSERT_TRUE(win.put(&mine, 1, Dtype::i64, t, rt.rank()));
    for (int t = 0; t < rt.size(); ++t) ASSERT_TRUE(win.unlock(t));
    ASSERT_TRUE(rt.barrier());
    for (int r = 0; r < rt.size(); ++r) {
      std::int64_t got;
      std::memcpy(&got, static_cast<std::byte*>(win.base()) + 8 * r, 8);
      EXPECT_EQ(got, 1000 + r);
    }
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, ThousandsOfOpsInOneEpochAllArrive) {
  // More ops than the window keeps in flight, so op calls wait for completions (and, when
  // the provider's queue fills, retry their post).
  constexpr int kOps = 2000;
  ASSERT_TRUE(run_job(4, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 8 * kOps + 8});
    ASSERT_TRUE(w);
    Window& win = *w.value();
    std::vector<std::uint64_t> vals(kOps);
    std::iota(vals.begin(), vals.end(), 1);
    std::uint64_t one = 1;
    const int right = (rt.rank() + 1) % rt.size();
    ASSERT_TRUE(win.lock_all());
    for (int i = 0; i < kOps; ++i) {
      ASSERT_TRUE(win.put(&vals[static_cast<std::size_t>(i)], 1, Dtype::u64, right, 8 * i));
      ASSERT_TRUE(win.accumulate(&one, 1, Dtype::u64, right, 8 * kOps, Op::sum));
    }
    ASSERT_TRUE(win.unlock_all());
    ASSERT_TRUE(rt.barrier());
    const auto* mem = static_cast<const std::uint64_t*>(win.base());
    for (int i = 0; i < kOps; ++i) ASSERT_EQ(mem[i], static_cast<std::uint64_t>(i + 1));
    EXPECT_EQ(mem[kOps], static_cast<std::uint64_t>(kOps));
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, PostStartCompleteWaitWithNativePuts) {
  ASSERT_TRUE(run_job(3, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 16});
    ASSERT_TRUE(w);
    Window& win = *w.value();
    const Counters before = rt.counters();
    for (int round = 1; round <= 5; ++round) {
      if (rt.rank() == 0) {
        int origins[2] = {1, 2};
        ASSERT_TRUE(win.post(origins));
        ASSERT_TRUE(win.wait());
        std::int64_t got[2];
        std::memcpy(got, win.base(), 16);
        EXPECT_EQ(got[0], 10 * round + 1);
        EXPECT_EQ(got[1], 10 * round + 2);
      } else {
        int target[1] = {0};
        std::int64_t v = 10 * round + rt.rank();
        ASSERT_TRUE(win.start(target));
        ASSERT_TRUE(win.put(&v, 1, Dtype::i64, 0, 8 * (rt.rank() - 1)));
        ASSERT_TRUE(win.complete());
      }
    }
    EXPECT_EQ((rt.counters() - before).rma_messages(), 0u);
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, MisalignedAccumulateFallsBackToAmCounted) {
  ASSERT_TRUE(run_job(2, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 64});
    ASSERT_TRUE(w);
    Window& win = *w.value();
    const Counters before = rt.counters();
    ASSERT_TRUE(rt.barrier());
    std::int64_t one = 1;
    ASSERT_TRUE(win.lock_all());
    for (int i = 0; i < 5; ++i) {
      ASSERT_TRUE(win.accumulate(&one, 1, Dtype::i64, 0, 3, Op::sum));   // misaligned: am
      ASSERT_TRUE(win.accumulate(&one, 1, Dtype::i64, 0, 16, Op::sum));  // aligned: native
    }
    ASSERT_TRUE(win.unlock_all());
    ASSERT_TRUE(rt.barrier());
    const Counters d = rt.counters() - before;
    EXPECT_EQ(direct_count(d, DirectOp::am_fallback), 5u);
    EXPECT_EQ(direct_count(d, DirectOp::accumulate), 5u);
    if (rt.rank() == 0) {
      std::int64_t a, b;
      std::memcpy(&a, static_cast<std::byte*>(win.base()) + 3, 8);
      std::memcpy(&b, static_cast<std::byte*>(win.base()) + 16, 8);
      EXPECT_EQ(a, 10);
      EXPECT_EQ(b, 10);
    } else {
      EXPECT_GT(d.rma_messages(), 0u);  // the fallbacks are am ops: packets, honestly counted
    }
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, RequestsCompleteNatively) {
  ASSERT_TRUE(run_job(2, direct_config(), [](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 64});
    ASSERT_TRUE(w);
    Window& win = *w.value();
    const int peer = 1 - rt.rank();
    std::uint32_t out = 1000u + static_cast<std::uint32_t>(rt.rank()), in = 0;
    ASSERT_TRUE(win.lock_all());
    auto put = win.rput(&out, 1, Dtype::u32, peer, 4 * rt.rank());
    ASSERT_TRUE(put);
    ASSERT_TRUE(put.value().wait());
    ASSERT_TRUE(win.flush(peer));
    ASSERT_TRUE(rt.barrier());
    // Read back what this rank put into the peer.
    auto get = win.rget(&in, 1, Dtype::u32, peer, 4 * rt.rank());
    ASSERT_TRUE(get);
    ASSERT_TRUE(get.value().wait());
    EXPECT_EQ(in, out);
    ASSERT_TRUE(win.unlock_all());
    ASSERT_TRUE(win.free());
  }));
}

TEST(FabricDirect, SharedAndDynamicWindowsStayOffTheDirectPath) {
  ASSERT_TRUE(run_job(2, direct_config(), [](Runtime& rt) {
    auto s = rt.create_window({.flavor = Flavor::shared, .size = 64});
    EXPECT_EQ(s.status().error_class(), ErrorClass::rma_flavor);
    auto d = rt.create_window({.flavor = Flavor::dynamic, .info = {{"path", "auto"}}});
    ASSERT_TRUE(d);
    EXPECT_EQ(d.value()->path(), Path::am);
    ASSERT_TRUE(d.value()->free());
  }));
}

}  // namespace
}  // namespace rma
