// The shm transport with ranks as threads: every producer's packets arrive whole and in its
// order while they take both paths (a pair's mailbox slot and the receive queue), and jobs
// above kMailboxRanks run on the queues alone.
#include "shm/shm_transport.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "shm/shm_mailbox.hpp"
#include "testing/thread_job.hpp"

namespace rma::shm {
namespace {

using progress::PacketHeader;

// Payload sizes cycle through some the slot takes and some only the queue does.
std::size_t size_of_packet(std::uint32_t i) {
  static constexpr std::size_t kSizes[] = {8, 0, 72, 16, 73, 8, 200, 40, 8, 1000, 64};
  return kSizes[i % std::size(kSizes)];
}
std::byte fill(int src, std::uint32_t i) {
  return static_cast<std::byte>((src * 131 + i) & 0xff);
}

class Checker final : public progress::PacketSink {
 public:
  explicit Checker(int ranks) : next_(static_cast<std::size_t>(ranks)) {}
  void deliver(int src, const PacketHeader& h, std::span<const std::byte> payload) override {
    std::uint32_t& want = next_[static_cast<std::size_t>(src)];
    if (h.seq != want || h.win != static_cast<std::uint32_t>(src) ||
        payload.size() != size_of_packet(h.seq)) {
      if (errors_++ == 0)
        ADD_FAILURE() << "from rank " << src << ": packet " << h.seq << " (win " << h.win << ", "
                      << payload.size() << " B), expected packet " << want;
    }
    for (auto b : payload)
      if (b != fill(src, h.seq) && errors_++ == 0)
        ADD_FAILURE() << "packet " << h.seq << ": bad byte";
    want = h.seq + 1;
    ++received_;
  }
  std::uint64_t received() const { return received_; }
  int errors() const { return errors_; }

 private:
  std::vector<std::uint32_t> next_;
  std::uint64_t received_ = 0;
  int errors_ = 0;
};

struct Totals {
  std::uint64_t sent = 0, posts = 0;
};

// Every rank sends `packets` packets to every other rank, polling now and then (so slots are
// often still full when the next packet comes, and packets fall back to the queue).
Totals all_to_all(int ranks, std::uint32_t packets) {
  testing::LocalStore store(ranks);
  std::mutex mu;
  Totals totals;
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      testing::LocalBootstrap boot(store, r, ranks);
      RuntimeConfig cfg;
      cfg.name_prefix =
          "rmabench-test." + std::to_string(::getpid()) + ".transport" + std::to_string(ranks);
      auto t = create_transport(boot, cfg);
      ASSERT_TRUE(t) << t.status().to_string();
      progress::Transport& tr = *t.value();
      Checker in(ranks);
      const std::uint64_t expect = static_cast<std::uint64_t>(ranks - 1) * packets;
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      std::vector<std::byte> payload(1000);
      std::uint32_t step = static_cast<std::uint32_t>(r) * 7919u;
      for (std::uint32_t i = 0; i < packets; ++i) {
        for (int dst = 0; dst < ranks; ++dst) {
          if (dst == r) continue;
          PacketHeader h = progress::make_header(PacketType::put);
          h.seq = i;
          h.win = static_cast<std::uint32_t>(r);
          const std::size_t n = size_of_packet(i);
          std::fill(payload.begin(), payload.begin() + static_cast<std::ptrdiff_t>(n), fill(r, i));
          while (!tr.try_send(dst, h, std::span<const std::byte>(payload.data(), n))) {
            tr.poll(in, 64);
            ASSERT_LT(std::chrono::steady_clock::now(), deadline)
                << "rank " << r << " could not send";
            std::this_thread::yield();
          }
        }
        // Poll at irregular moments, a few packets at a time.
        step = step * 1103515245u + 12345u;
        if ((step >> 16) % 3 == 0) tr.poll(in, 1 + static_cast<int>((step >> 20) % 4));
      }
      while (in.received() < expect) {
        if (tr.poll(in, 64) == 0) std::this_thread::yield();
        ASSERT_LT(std::chrono::steady_clock::now(), deadline)
            << "rank " << r << " received " << in.received() << " of " << expect;
      }
      EXPECT_EQ(in.errors(), 0);
      Counters c;
      tr.add_counters(c);
      {
        std::lock_guard g(mu);
        totals.sent += static_cast<std::uint64_t>(ranks - 1) * packets;
        totals.posts += c.transport["mailbox_posts"];
      }
      (void)boot.fence();  // nobody unmaps while a peer still writes
    });
  }
  for (auto& th : threads) th.join();
  return totals;
}

TEST(ShmTransport, EachProducersPacketsArriveInOrderThroughSlotsAndQueues) {
  const Totals t = all_to_all(4, 20000);
  // Both paths carried packets, so the order between them was exercised.
  EXPECT_GT(t.posts, 0u);
  EXPECT_LT(t.posts, t.sent);
}

TEST(ShmTransport, AJobAboveTheMailboxLimitRunsOnTheQueuesAlone) {
  const Totals t = all_to_all(kMailboxRanks + 1, 50);
  EXPECT_EQ(t.posts, 0u);
}

}  // namespace
}  // namespace rma::shm
