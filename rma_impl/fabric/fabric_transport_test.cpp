// The am path over the fabric transport, end to end with real runtimes (ranks as threads):
// data arrives and every pattern costs exactly the RMA packets it costs on shm.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

#include "fabric/fabric_transport.hpp"
#include "testing/thread_job.hpp"

namespace rma {
namespace {

using testing::run_job;

// tcp;ofi_rxm, the default; RMA_TEST_PROVIDER runs the same tests on another provider.
const char* test_provider() {
  const char* p = std::getenv("RMA_TEST_PROVIDER");
  return p && *p ? p : "tcp;ofi_rxm";
}

RuntimeConfig fabric_config(const char* provider, Path path = Path::am) {
  RuntimeConfig c;
  c.backend = "fabric";
  c.provider = provider;
  c.default_path = path;
  return c;
}

// What one pattern did on every rank: RMA packets by type (summed over ranks) and whether
// every rank found its data.
struct Outcome {
  std::array<std::uint64_t, packet_type_count> sent{};
  std::uint64_t total = 0;
  int ranks_ok = 0;
  std::string transport;
};

using Pattern = std::function<bool(Runtime&, Window&)>;

Outcome run_pattern(RuntimeConfig cfg, int ranks, std::size_t win_bytes, const Pattern& body) {
  Outcome out;
  std::mutex mu;
  Status s = run_job(ranks, cfg, [&](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = win_bytes});
    ASSERT_TRUE(w) << w.status().to_string();
    Window& win = *w.value();
    // Counted from a point every rank has passed before any rank starts the pattern.
    const Counters before = rt.counters();
    ASSERT_TRUE(rt.barrier());
    const bool ok = body(rt, win);
    ASSERT_TRUE(rt.barrier());
    const Counters d = rt.counters() - before;
    {
      std::lock_guard g(mu);
      for (int i = 0; i < packet_type_count; ++i)
        if (class_of(static_cast<PacketType>(i)) == PacketClass::rma) out.sent[i] += d.sent[i];
      out.total += d.rma_messages();
      out.ranks_ok += ok ? 1 : 0;
      out.transport = rt.transport_name();
    }
    ASSERT_TRUE(win.free());
  });
  EXPECT_TRUE(s) << s.to_string();
  return out;
}

bool lock_put_unlock(Runtime& rt, Window& win) {
  std::uint64_t v = 0x1122334455667788ull;
  if (rt.rank() == 0) {
    if (!win.lock(LockType::exclusive, 1) || !win.put(&v, 1, Dtype::u64, 1, 8) || !win.unlock(1))
      return false;
  }
  if (!rt.barrier()) return false;
  if (rt.rank() != 1) return true;
  std::uint64_t got;
  std::memcpy(&got, static_cast<std::byte*>(win.base()) + 8, 8);
  return got == v;
}

constexpr int kRingEpochs = 10;

bool fence_ring(Runtime& rt, Window& win) {
  const int right = (rt.rank() + 1) % rt.size();
  std::int64_t mine = rt.rank() + 1;
  if (!win.fence()) return false;
  for (int e = 0; e < kRingEpochs; ++e) {
    if (!win.accumulate(&mine, 1, Dtype::i64, right, 0, Op::sum) || !win.fence()) return false;
  }
  std::int64_t got;
  std::memcpy(&got, win.base(), 8);
  const int left = (rt.rank() + rt.size() - 1) % rt.size();
  return got == kRingEpochs * (left + 1) && win.fence(assert_nosucceed);
}

constexpr std::size_t kMiB = 1 << 20;

bool large_put(Runtime& rt, Window& win) {
  std::vector<std::uint8_t> data(kMiB);
  for (std::size_t i = 0; i < kMiB; ++i) data[i] = static_cast<std::uint8_t>(i * 13 + 5);
  if (rt.rank() == 0) {
    if (!win.lock(LockType::exclusive, 1) || !win.put(data.data(), kMiB, Dtype::u8, 1, 0) ||
        !win.unlock(1))
      return false;
  }
  if (!rt.barrier()) return false;
  return rt.rank() != 1 || std::memcmp(win.base(), data.data(), kMiB) == 0;
}

void expect_same_counts(const Outcome& fabric, const Outcome& shm) {
  for (int i = 0; i < packet_type_count; ++i)
    EXPECT_EQ(fabric.sent[i], shm.sent[i])
        << "packet type " << to_string(static_cast<PacketType>(i));
}

TEST(FabricAm, LockPutUnlockCostsWhatItCostsOnShm) {
  const Outcome f = run_pattern(fabric_config(test_provider()), 2, 64, lock_put_unlock);
  const Outcome s = run_pattern({}, 2, 64, lock_put_unlock);
  EXPECT_EQ(f.transport, std::string("fabric:") + test_provider());
  EXPECT_EQ(f.ranks_ok, 2);
  EXPECT_EQ(f.total, 2u);
  EXPECT_EQ(f.sent[index(PacketType::put)], 1u);
  EXPECT_EQ(f.sent[index(PacketType::ack)], 1u);
  expect_same_counts(f, s);
}

// A fabric poll is costly (Transport::cheap_poll), so synchronization calls there do not
// poll on entry. A target whose application thread loops on calls that neither poll nor
// wait must still answer: its parked agent leaves its parking and serves the origin.
TEST(FabricAm, ATargetLoopingOnCallsThatNeitherPollNorWaitStillAnswers) {
  Status s = run_job(2, fabric_config(test_provider()), [&](Runtime& rt) {
    auto w = rt.create_window({.flavor = Flavor::allocate, .size = 64});
    ASSERT_TRUE(w) << w.status().to_string();
    Window& win = *w.value();
    std::uint64_t v = 7;
    // The ack of the origin's epoch is the target's answer.
    auto acks = [&] { return rt.counters().sent[index(PacketType::ack)]; };
    const std::uint64_t before = acks();
    // The target waits in this barrier for longer than its agent's sleep slice (100 ms): the
    // agent wakes, finds the application thread waiting, and parks.
    if (rt.rank() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ASSERT_TRUE(rt.barrier());
    if (rt.rank() == 0) {
      // Sent once the target is in its loop, not while it still waits in the barrier (whose
      // wait loop would answer).
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      EXPECT_TRUE(win.lock(LockType::exclusive, 1) && win.put(&v, 1, Dtype::u64, 1, 0) &&
                  win.unlock(1));
    } else {
      // The deadline only bounds a hang.
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (acks() == before && std::chrono::steady_clock::now() < deadline)
        ASSERT_TRUE(win.sync());
      EXPECT_GT(acks(), before) << "the target never answered the origin's lock-put-unlock";
    }
    ASSERT_TRUE(rt.barrier());
    ASSERT_TRUE(win.free());
  });
  EXPECT_TRUE(s) << s.to_string();
}

TEST(FabricAm, FenceRingOfFourCostsWhatItCostsOnShm) {
  const Outcome f = run_pattern(fabric_config(test_provider()), 4, 64, fence_ring);
  const Outcome s = run_pattern({}, 4, 64, fence_ring);
  EXPECT_EQ(f.ranks_ok, 4);
  // Under fewest (the `messages` exchange at 4 ranks, docs/message-counts.md): per epoch 4
  // accumulates and 2(n - 1) - 2 = 4 bare count messages (two notes ride on ops); the opening
  // fence is free, the closing nosucceed fence has no op to ride on: 2(n - 1) = 6.
  EXPECT_EQ(f.sent[index(PacketType::accumulate)], 4u * kRingEpochs);
  EXPECT_EQ(f.sent[index(PacketType::fence_count)], 4u * kRingEpochs + 6u);
  expect_same_counts(f, s);
}

TEST(FabricAm, OneMebibytePutArrivesWithTheShmCounts) {
  const Outcome f = run_pattern(fabric_config(test_provider()), 2, kMiB, large_put);
  const Outcome s = run_pattern({}, 2, kMiB, large_put);
  EXPECT_EQ(f.ranks_ok, 2);
  EXPECT_EQ(f.total, 3u);  // fewest: put (rendezvous, carries the lock), cts (the grant), ack
  expect_same_counts(f, s);
}

TEST(FabricAm, EagerLimitMatchesShmForEveryJobSize) {
  // The same largest packet as the shm rings, so the same ops go eagerly on both.
  EXPECT_EQ(fabric::max_payload_for(2), 64u * 1024);
  EXPECT_EQ(fabric::max_payload_for(9), 32u * 1024 - 56);
  EXPECT_EQ(fabric::max_payload_for(64), 16u * 1024 - 56);
  std::size_t shm_limit = 0, fabric_limit = 0;
  RuntimeConfig big;
  big.eager_limit = 64 * 1024;
  // Every rank thread sees the same limit; one of them records it.
  ASSERT_TRUE(run_job(2, big, [&](Runtime& rt) {
    if (rt.rank() == 0) shm_limit = rt.eager_limit();
  }));
  RuntimeConfig fbig = fabric_config(test_provider());
  fbig.eager_limit = 64 * 1024;
  ASSERT_TRUE(run_job(2, fbig, [&](Runtime& rt) {
    if (rt.rank() == 0) fabric_limit = rt.eager_limit();
  }));
  EXPECT_EQ(fabric_limit, shm_limit);
}

TEST(FabricAm, ManyPacketsToOnePeerWaitForCreditsAndStayInOrder) {
  // 500 messages into one peer before it receives any: far more than its credit window, so
  // the sender has to wait for credits; matching is in order, so the payloads say whether
  // anything overtook.
  ASSERT_TRUE(run_job(2, fabric_config(test_provider()), [](Runtime& rt) {
    constexpr int kMessages = 500;
    if (rt.rank() == 0) {
      for (int i = 0; i < kMessages; ++i) ASSERT_TRUE(rt.send(1, &i, sizeof i, 7));
      const Counters c = rt.counters();
      EXPECT_GT(c.transport.count("no_credit"), 0u);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      for (int i = 0; i < kMessages; ++i) {
        int got = -1;
        ASSERT_TRUE(rt.recv(0, &got, sizeof got, 7));
        ASSERT_EQ(got, i);
      }
      EXPECT_GT(rt.counters().transport["credit"], 0u);
    }
  }));
}

TEST(FabricAm, UnknownProviderIsUnsupported) {
  Status s = run_job(2, fabric_config("no-such-provider"), [](Runtime&) {});
  EXPECT_EQ(s.error_class(), ErrorClass::unsupported);
  EXPECT_NE(s.message().find("no-such-provider"), std::string::npos);
}

}  // namespace
}  // namespace rma
