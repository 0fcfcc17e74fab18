// The receive queue on its own, in process memory: records come back whole and in order per
// producer, across many wraps, a full queue refuses instead of overwriting, and concurrent
// producers lose nothing.
#include "shm/shm_queue.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

namespace rma::shm {
namespace {

using progress::PacketHeader;

struct Mem {
  explicit Mem(std::size_t bytes)
      : raw(static_cast<std::byte*>(std::aligned_alloc(64, sizeof(QueueCtl) + bytes))), cap(bytes) {
    std::memset(raw, 0, sizeof(QueueCtl) + bytes);
    ctl = new (raw) QueueCtl;
  }
  ~Mem() { std::free(raw); }
  std::byte* data() const { return raw + sizeof(QueueCtl); }
  std::byte* raw;
  std::size_t cap;
  QueueCtl* ctl;
};

PacketHeader header(std::uint32_t seq) {
  PacketHeader h = progress::make_header(PacketType::put);
  h.seq = seq;
  return h;
}

// The consumer hands cells back late (QueueReader::tidy), but a read() that finds nothing
// hands back what it read: a producer of the largest record, which needs a wrap marker
// before it, then fits in an empty queue instead of waiting on cells read long ago.
TEST(ShmQueue, AnEmptyReadHandsBackWhatItRead) {
  Mem m(1024);
  QueueWriter w(m.ctl, m.data(), m.cap, 1);
  QueueReader r(m.ctl, m.data(), m.cap);
  auto drop = [](int, const PacketHeader&, std::span<const std::byte>) {};
  // Three 3-cell records: the reader hands back the first two at the quarter mark and
  // keeps the third (192 bytes) until it is idle.
  const std::vector<std::byte> three_cells(3 * 64 - queue_detail::kOverhead);
  for (std::uint32_t i = 0; i < 3; ++i) ASSERT_TRUE(w.try_write(header(i), three_cells));
  ASSERT_EQ(r.read(drop, 8), 3);
  EXPECT_EQ(r.read(drop, 8), 0);
  const std::vector<std::byte> largest(queue_max_payload(m.cap));
  EXPECT_TRUE(w.try_write(header(3), largest));
  EXPECT_EQ(r.read(drop, 8), 1);
}

TEST(ShmQueue, RecordsComeBackWholeAndInOrderAcrossWraps) {
  Mem m(4096);
  QueueWriter w(m.ctl, m.data(), m.cap, 3);
  QueueReader r(m.ctl, m.data(), m.cap);
  std::uint32_t sent = 0, got = 0;
  // Sizes that do not divide the queue, so records land at every offset and wrap.
  for (int round = 0; round < 500; ++round) {
    const std::size_t size = static_cast<std::size_t>(round * 37 % 700);
    std::vector<std::byte> payload(size, static_cast<std::byte>(round & 0xff));
    ASSERT_TRUE(w.try_write(header(sent), payload)) << "round " << round;
    ++sent;
    const int n = r.read(
        [&](int src, const PacketHeader& h, std::span<const std::byte> p) {
          EXPECT_EQ(src, 3);
          EXPECT_EQ(h.seq, got);
          ASSERT_EQ(p.size(), size);
          for (auto b : p) ASSERT_EQ(b, static_cast<std::byte>(round & 0xff));
          ++got;
        },
        8);
    EXPECT_EQ(n, 1);
  }
  EXPECT_EQ(got, sent);
  EXPECT_FALSE(r.has_data());
}

TEST(ShmQueue, FullQueueRefusesUntilTheConsumerFreesRoom) {
  Mem m(1024);
  QueueWriter w(m.ctl, m.data(), m.cap, 0);
  QueueReader r(m.ctl, m.data(), m.cap);
  const std::vector<std::byte> payload(200, std::byte{1});  // 256-byte records
  int accepted = 0;
  while (w.try_write(header(static_cast<std::uint32_t>(accepted)), payload)) ++accepted;
  EXPECT_EQ(accepted, 4);
  EXPECT_TRUE(r.has_data());
  std::uint32_t first = 99;
  EXPECT_EQ(
      r.read([&](int, const PacketHeader& h, std::span<const std::byte>) { first = h.seq; }, 1), 1);
  EXPECT_EQ(first, 0u);
  EXPECT_TRUE(w.try_write(header(4), payload));
  EXPECT_FALSE(w.try_write(header(5), payload));
  std::vector<std::uint32_t> rest;
  r.read([&](int, const PacketHeader& h, std::span<const std::byte>) { rest.push_back(h.seq); },
         64);
  EXPECT_EQ(rest, (std::vector<std::uint32_t>{1, 2, 3, 4}));
  EXPECT_FALSE(r.has_data());
}

TEST(ShmQueue, ConcurrentProducersLoseNothingAndKeepTheirOrder) {
  constexpr int kProducers = 4;
  constexpr std::uint32_t kEach = 20000;
  Mem m(8192);
  QueueReader r(m.ctl, m.data(), m.cap);
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p)
    producers.emplace_back([&m, p] {
      QueueWriter w(m.ctl, m.data(), m.cap, p);
      std::vector<std::byte> payload(static_cast<std::size_t>(8 * (p + 1)),
                                     static_cast<std::byte>(p));
      for (std::uint32_t i = 0; i < kEach;)
        if (w.try_write(header(i), payload))
          ++i;
        else
          std::this_thread::yield();
    });
  std::vector<std::uint32_t> next(kProducers, 0);
  std::uint64_t total = 0;
  bool ok = true;
  while (total < std::uint64_t{kProducers} * kEach && ok) {
    const int n = r.read(
        [&](int src, const PacketHeader& h, std::span<const std::byte> p) {
          if (src < 0 || src >= kProducers || h.seq != next[static_cast<std::size_t>(src)] ||
              p.size() != static_cast<std::size_t>(8 * (src + 1)) ||
              p[0] != static_cast<std::byte>(src))
            ok = false;
          else
            ++next[static_cast<std::size_t>(src)];
        },
        64);
    total += static_cast<std::uint64_t>(n);
    if (n == 0) std::this_thread::yield();
  }
  for (auto& t : producers) t.join();
  EXPECT_TRUE(ok);
  for (int p = 0; p < kProducers; ++p) EXPECT_EQ(next[static_cast<std::size_t>(p)], kEach);
  EXPECT_FALSE(r.has_data());
}

}  // namespace
}  // namespace rma::shm
