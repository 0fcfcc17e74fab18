// The shm transport with ranks as threads: every producer's packets arrive whole and in its
// order while they take both paths (a pair's mailbox slot and the receive queue), replies
// sent from inside a delivery included, and jobs above kMailboxRanks run on the queues
// alone. The slots alone, over one mapping, so ThreadSanitizer sees both sides' accesses.
#include "shm/shm_transport.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <deque>
#include <iterator>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "shm/shm_mailbox.hpp"
#include "testing/thread_job.hpp"

namespace rma::shm {
namespace {

using progress::PacketHeader;
using Clock = std::chrono::steady_clock;

// Payload sizes cycle through many the slot takes and a few only the queue does.
std::size_t size_of_packet(std::uint32_t i) {
  static constexpr std::size_t kSizes[] = {8, 0, 72, 16, 73, 8, 8, 40, 8, 1000, 64, 24};
  return kSizes[i % std::size(kSizes)];
}
// Sizes the slot takes, for the slots alone.
std::size_t size_of_post(std::uint32_t i) {
  static constexpr std::size_t kSizes[] = {8, 0, 72, 16, 40, 64, 24};
  return kSizes[i % std::size(kSizes)];
}
std::byte fill(int src, std::uint32_t i) {
  return static_cast<std::byte>((src * 131 + i) & 0xff);
}

// Checks each producer's packets: numbered in order, whole, with the producer's bytes.
class Checker : public progress::PacketSink {
 public:
  explicit Checker(int ranks, std::size_t (*size_of)(std::uint32_t) = size_of_packet)
      : size_of_(size_of), next_(static_cast<std::size_t>(ranks)) {}
  virtual ~Checker() = default;
  void deliver(int src, const PacketHeader& h, std::span<const std::byte> payload) override {
    std::uint32_t& want = next_[static_cast<std::size_t>(src)];
    if (h.seq != want || h.win != static_cast<std::uint32_t>(src) ||
        payload.size() != size_of_(h.seq)) {
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
  std::size_t (*size_of_)(std::uint32_t);
  std::vector<std::uint32_t> next_;
  std::uint64_t received_ = 0;
  int errors_ = 0;
};

PacketHeader header_of(int src, std::uint32_t i) {
  PacketHeader h = progress::make_header(PacketType::put);
  h.seq = i;
  h.win = static_cast<std::uint32_t>(src);
  return h;
}

struct Totals {
  std::uint64_t small = 0, posts = 0;
  bool ok = true;
};

// A job's transports (testing::shm_transports), or the test stops with why not.
std::vector<std::unique_ptr<progress::Transport>> transports(int ranks, const std::string& tag) {
  auto made =
      testing::shm_transports(ranks, "rmabench-test." + std::to_string(::getpid()) + "." + tag);
  if (!made) throw std::runtime_error("shm transport not created: " + made.status().to_string());
  return std::move(made.value());
}

// Runs body(rank, transport) on `ranks` threads, each with its rank's transport; they are
// unmapped only after every thread is done.
template <class Body>
void run_ranks(int ranks, const std::string& tag, Body body) {
  auto t = transports(ranks, tag);
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] { body(r, *t[static_cast<std::size_t>(r)]); });
  for (auto& th : threads) th.join();
}

// Every rank sends `packets` packets to every rank, itself included, polling only now and
// then: small packets take a slot when their receiver has answered and taken the last post,
// the queue otherwise.
Totals all_to_all(int ranks, std::uint32_t packets) {
  std::mutex mu;
  Totals totals;
  run_ranks(ranks, "all" + std::to_string(ranks), [&](int r, progress::Transport& tr) {
    Checker in(ranks);
    const std::uint64_t expect = static_cast<std::uint64_t>(ranks) * packets;
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    std::vector<std::byte> payload(1000);
    std::uint32_t step = static_cast<std::uint32_t>(r) * 7919u;
    std::uint64_t small = 0;
    bool ok = true;
    for (std::uint32_t i = 0; i < packets && ok; ++i) {
      for (int dst = 0; dst < ranks && ok; ++dst) {
        const std::size_t n = size_of_packet(i);
        std::fill_n(payload.begin(), n, fill(r, i));
        while (!tr.try_send(dst, header_of(r, i), std::span<const std::byte>(payload.data(), n))) {
          tr.poll(in, 64);
          std::this_thread::yield();
          if (Clock::now() > deadline) {
            ADD_FAILURE() << "rank " << r << " could not send packet " << i;
            ok = false;
            break;
          }
        }
        if (dst != r && n <= kMailboxPayload) ++small;
      }
      step = step * 1103515245u + 12345u;
      if ((step >> 16) % 3 == 0) tr.poll(in, 1 + static_cast<int>((step >> 20) % 4));
    }
    while (ok && in.received() < expect) {
      if (tr.poll(in, 64) == 0) std::this_thread::yield();
      if (Clock::now() > deadline) {
        ADD_FAILURE() << "rank " << r << " received " << in.received() << " of " << expect;
        ok = false;
      }
    }
    Counters c;
    tr.add_counters(c);
    std::lock_guard g(mu);
    totals.small += small;
    totals.posts += c.transport["mailbox_posts"];
    totals.ok = totals.ok && ok && in.errors() == 0;
  });
  return totals;
}

TEST(ShmTransport, EachProducersPacketsArriveInOrderThroughSlotsAndQueues) {
  const Totals t = all_to_all(4, 20000);
  EXPECT_TRUE(t.ok);
  // Small packets went both ways: into slots, and into queues while a slot was full.
  EXPECT_GT(t.posts, 0u);
  EXPECT_LT(t.posts, t.small);
}

TEST(ShmTransport, OrderHoldsPastTheWrapOfTheQueueRecordCount) {
  // Far more than 65,536 queue records per pair: the posts' 16-bit count wraps.
  const Totals t = all_to_all(2, 200000);
  EXPECT_TRUE(t.ok);
  EXPECT_GT(t.posts, 0u);
  EXPECT_GT(t.small - t.posts, 2u * 65536u);
}

TEST(ShmTransport, AJobAboveTheMailboxLimitRunsOnTheQueuesAlone) {
  const Totals t = all_to_all(kMailboxRanks + 1, 50);
  EXPECT_TRUE(t.ok);
  EXPECT_EQ(t.posts, 0u);
}

bool send(progress::Transport& t, int dst, std::uint32_t i) {
  std::byte bytes[1000];
  std::fill_n(bytes, size_of_packet(i), fill(t.rank(), i));
  return t.try_send(dst, header_of(t.rank(), i),
                    std::span<const std::byte>(bytes, size_of_packet(i)));
}
std::uint64_t posts(const progress::Transport& t) {
  Counters c;
  t.add_counters(c);
  return c.transport["mailbox_posts"];
}

// Two ranks' transports, driven from the test's thread (each step happens in the order
// written), and what each received.
class ShmTransportScript : public ::testing::Test {
 protected:
  ShmTransportScript()
      : t_(transports(2, ::testing::UnitTest::GetInstance()->current_test_info()->name())),
        a(*t_[0]),
        b(*t_[1]) {}

 private:
  std::vector<std::unique_ptr<progress::Transport>> t_;

 protected:
  progress::Transport& a;
  progress::Transport& b;
  Checker at_a{2}, at_b{2};
};

TEST_F(ShmTransportScript, APostAfterQueueRecordsWaitsForThemAndOneBeforeThemGoesFirst) {
  // Packet 0 takes the slot; 1 and 2 take the queue (b has not answered yet), marked as
  // coming after a post. Polled one at a time, the post comes first.
  ASSERT_TRUE(send(a, 1, 0) && send(a, 1, 1) && send(a, 1, 2));
  EXPECT_EQ(posts(a), 1u);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(b.poll(at_b, 1), 1);
  EXPECT_EQ(at_b.received(), 3u);
  // b answers (the answer carries its acknowledgment of packet 0), a takes it: a may post
  // again. Packet 3 (8 bytes) does, counting the two queue records before it.
  ASSERT_TRUE(send(b, 0, 0));
  EXPECT_EQ(a.poll(at_a, 8), 1);
  ASSERT_TRUE(send(a, 1, 3));
  EXPECT_EQ(posts(a), 2u);
  EXPECT_EQ(b.poll(at_b, 8), 1);
  // Now a has not heard from b since its last post: packets 4 and 5 take the queue.
  ASSERT_TRUE(send(a, 1, 4) && send(a, 1, 5));
  EXPECT_EQ(posts(a), 2u);
  // b answers; a takes the answer and posts packet 6 behind the two records.
  ASSERT_TRUE(send(b, 0, 1));
  EXPECT_EQ(a.poll(at_a, 8), 1);
  ASSERT_TRUE(send(a, 1, 6));
  EXPECT_EQ(posts(a), 3u);
  // The post is in its slot, yet it waits for 4 and 5; one poll takes all three in order.
  EXPECT_TRUE(b.has_incoming());
  EXPECT_EQ(b.poll(at_b, 8), 3);
  EXPECT_EQ(at_b.received(), 7u);
  EXPECT_FALSE(b.has_incoming());
  EXPECT_EQ(at_a.errors() + at_b.errors(), 0);
}

TEST_F(ShmTransportScript, APostWaitsForMoreThan65536QueueRecordsBeforeIt) {
  ASSERT_TRUE(send(a, 1, 0));  // the slot's first post; a hears nothing back for a while
  constexpr std::uint32_t kRecords = 70000;
  std::uint32_t i = 1;
  while (i <= kRecords) {
    while (i <= kRecords && send(a, 1, i)) ++i;
    while (b.poll(at_b, 64) > 0) {
    }
  }
  EXPECT_EQ(posts(a), 1u);
  ASSERT_TRUE(send(a, 1, i++));  // still unheard: a record
  ASSERT_TRUE(send(b, 0, 0));
  EXPECT_EQ(a.poll(at_a, 8), 1);
  ASSERT_TRUE(send(a, 1, i++));  // a post behind 70,001 records sent since the last one
  EXPECT_EQ(posts(a), 2u);
  EXPECT_EQ(b.poll(at_b, 64), 2);
  EXPECT_EQ(at_b.received(), static_cast<std::uint64_t>(i));
  EXPECT_EQ(at_a.errors() + at_b.errors(), 0);
}

// Rank 1 answers every packet from inside its delivery, as the engine answers a request;
// replies that find no room wait for the next poll.
class Replier final : public Checker {
 public:
  Replier(progress::Transport& tr, int ranks) : Checker(ranks), tr_(tr) {}
  void deliver(int src, const PacketHeader& h, std::span<const std::byte> payload) override {
    Checker::deliver(src, h, payload);
    pending_.push_back(h.seq);
    flush(src);
  }
  void flush(int dst) {
    while (!pending_.empty()) {
      const std::uint32_t i = pending_.front();
      std::byte bytes[1000];
      std::fill_n(bytes, size_of_packet(i), fill(tr_.rank(), i));
      if (!tr_.try_send(dst, header_of(tr_.rank(), i),
                        std::span<const std::byte>(bytes, size_of_packet(i))))
        return;
      pending_.pop_front();
    }
  }
  bool idle() const { return pending_.empty(); }

 private:
  progress::Transport& tr_;
  std::deque<std::uint32_t> pending_;
};

TEST(ShmTransport, RepliesSentFromInsideADeliveryKeepTheirOrder) {
  constexpr std::uint32_t kPackets = 50000;
  std::atomic<bool> ok{true};
  run_ranks(2, "reply", [&](int r, progress::Transport& tr) {
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    auto late = [&](const char* what) {
      if (Clock::now() <= deadline) return false;
      ADD_FAILURE() << "rank " << r << ": " << what;
      ok = false;
      return true;
    };
    if (r == 1) {
      Replier in(tr, 2);
      while (in.received() < kPackets || !in.idle()) {
        if (tr.poll(in, 1 + static_cast<int>(in.received() % 3)) == 0) std::this_thread::yield();
        in.flush(0);
        if (late("replies")) return;
      }
      if (in.errors() != 0) ok = false;
      return;
    }
    Checker in(2);
    std::byte bytes[1000];
    for (std::uint32_t i = 0; i < kPackets; ++i) {
      std::fill_n(bytes, size_of_packet(i), fill(r, i));
      while (
          !tr.try_send(1, header_of(r, i), std::span<const std::byte>(bytes, size_of_packet(i)))) {
        tr.poll(in, 64);
        if (late("requests")) return;
      }
      if (i % 5 == 0) tr.poll(in, 2);
    }
    while (in.received() < kPackets) {
      if (tr.poll(in, 64) == 0) std::this_thread::yield();
      if (late("waiting for replies")) return;
    }
    if (in.errors() != 0) ok = false;
  });
  EXPECT_TRUE(ok);
}

// The slots alone in one process mapping (the transport maps its segment once per rank, so
// a race detector cannot pair the two sides' accesses there): requests from one thread,
// each answered from inside its delivery by the other, both sides taken whole and in order,
// and no slot written again before its consumer acknowledged it.
TEST(ShmMailbox, RequestsAndRepliesAreTakenWholeAndInOrderAcrossThreads) {
  std::vector<MailboxSlot> slots(4);
  constexpr std::uint32_t kPosts = 20000;
  auto post = [](Mailboxes& box, int from, std::uint32_t i) {
    std::byte bytes[kMailboxPayload];
    std::fill_n(bytes, size_of_post(i), fill(from, i));
    return box.try_post(1 - from, header_of(from, i),
                        std::span<const std::byte>(bytes, size_of_post(i)));
  };
  std::thread answering([&] {
    Mailboxes box(slots.data(), 2, 1);
    Checker in(2, size_of_post);
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    while (in.received() < kPosts && Clock::now() < deadline) {
      const auto answer = [&](int src, const PacketHeader& h, std::span<const std::byte> p) {
        in.deliver(src, h, p);
        // The request's sender took our last reply before sending it: the slot is free.
        EXPECT_TRUE(post(box, 1, h.seq)) << "reply " << h.seq;
      };
      if (box.take_all(answer, 4) == 0) std::this_thread::yield();
    }
    EXPECT_EQ(in.received(), kPosts);
    EXPECT_EQ(in.errors(), 0);
  });
  Mailboxes box(slots.data(), 2, 0);
  Checker in(2, size_of_post);
  const auto deadline = Clock::now() + std::chrono::seconds(60);
  const auto take = [&](int src, const PacketHeader& h, std::span<const std::byte> p) {
    in.deliver(src, h, p);
  };
  for (std::uint32_t i = 0; i < kPosts && Clock::now() < deadline; ++i) {
    EXPECT_TRUE(post(box, 0, i)) << "request " << i;
    while (in.received() <= i && Clock::now() < deadline)
      if (box.take_all(take, 4) == 0) std::this_thread::yield();
  }
  answering.join();
  EXPECT_EQ(in.received(), kPosts);
  EXPECT_EQ(in.errors(), 0);
}

}  // namespace
}  // namespace rma::shm
