// Large am transfers over shm in one copy (Engine::send_stream, bulk.hpp): the same puts and
// get arrive with the same RMA packets whether one rank copies the data to or from the
// other's memory (through a mapping of the window or with a system call), the transport may
// not (RMA_SINGLE_COPY=off), or the kernel refuses the system call (=refuse plays that),
// which falls back to fragments, in order, for the rest of the job.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "testing/thread_job.hpp"

namespace rma {
namespace {

using testing::run_job;

// Not a multiple of a fragment or a page: the last piece of either is partial.
constexpr std::size_t kBytes = 256 * 1024 + 8;
// Above the eager limit, within one fragment and below three times the single-copy size
// (16 KiB by default): one packet as a fragment, one rank's copy otherwise.
constexpr std::size_t kOneFragment = 40 * 1024 + 8;

std::uint8_t pattern(int who, std::size_t i) {
  return static_cast<std::uint8_t>((i * 7 + static_cast<std::size_t>(who) * 31 + i / 4096) & 0xff);
}

struct Outcome {
  std::uint64_t rma = 0, data = 0, reads = 0, writes = 0, mapped = 0, refused = 0;
};

// Rank 0 puts twice into rank 1's window in one lock epoch (reusing its buffer after a
// flush_local, which waits for the first put's data to be out of it) and gets a third range
// back, `bytes` each; the ranks check what arrived. Returns the two ranks' counts together.
// The window's memory is the runtime's (allocate), which every rank maps and the origin
// copies through, or plain memory of the rank's own (create), which it copies with system
// calls.
Outcome transfers(const char* mode, std::size_t bytes = kBytes, Flavor flavor = Flavor::allocate) {
  ::setenv("RMA_SINGLE_COPY", mode, 1);
  Outcome out;
  std::mutex mu;
  EXPECT_TRUE(run_job(2, {}, [&](Runtime& rt) {
    std::vector<std::uint8_t> own(flavor == Flavor::create ? 3 * bytes : 0);
    auto w = rt.create_window({.flavor = flavor, .size = 3 * bytes, .base = own.data()});
    ASSERT_TRUE(w);
    Window& win = *w.value();
    ASSERT_EQ(win.path(), Path::am);
    auto* mem = static_cast<std::uint8_t*>(win.base());
    for (std::size_t i = 0; i < 3 * bytes; ++i) mem[i] = pattern(rt.rank(), i);
    ASSERT_TRUE(rt.barrier());
    const Counters before = rt.counters();
    ASSERT_TRUE(rt.barrier());  // counted from here on both ranks
    if (rt.rank() == 0) {
      std::vector<std::uint8_t> buf(bytes), got(bytes);
      for (std::size_t i = 0; i < bytes; ++i) buf[i] = pattern(7, i);
      ASSERT_TRUE(win.lock(LockType::exclusive, 1));
      ASSERT_TRUE(win.put(buf.data(), bytes, Dtype::u8, 1, 0));
      ASSERT_TRUE(win.flush_local(1));
      for (std::size_t i = 0; i < bytes; ++i) buf[i] = pattern(8, i);
      ASSERT_TRUE(win.put(buf.data(), bytes, Dtype::u8, 1, bytes));
      ASSERT_TRUE(win.unlock(1));
      ASSERT_TRUE(win.lock(LockType::shared, 1));
      ASSERT_TRUE(win.get(got.data(), bytes, Dtype::u8, 1, 2 * bytes));
      ASSERT_TRUE(win.unlock(1));
      for (std::size_t i = 0; i < bytes; ++i)
        if (got[i] != pattern(1, 2 * bytes + i)) {
          ADD_FAILURE() << mode << ": get byte " << i;
          break;
        }
    }
    ASSERT_TRUE(rt.barrier());
    if (rt.rank() == 1)
      for (std::size_t i = 0; i < 2 * bytes; ++i)
        if (mem[i] != (i < bytes ? pattern(7, i) : pattern(8, i - bytes))) {
          ADD_FAILURE() << mode << ": put byte " << i;
          break;
        }
    Counters d = rt.counters() - before;
    {
      std::lock_guard g(mu);
      out.rma += d.rma_messages();
      out.data += d.sent[index(PacketType::data)];
      out.reads += d.transport["single_copy_reads"];
      out.writes += d.transport["single_copy_writes"];
      out.mapped += d.transport["single_copy_mapped"];
      out.refused += d.transport["single_copy_refused"];
    }
    ASSERT_TRUE(rt.barrier());
    ASSERT_TRUE(win.free());
  }));
  ::unsetenv("RMA_SINGLE_COPY");
  return out;
}

constexpr std::uint64_t kFragments = (kBytes + 64 * 1024 - 1) / (64 * 1024);

TEST(SingleCopy, LargePutsAndGetMoveInOneCopy) {
  const Outcome fragments = transfers("off");
  const Outcome one = transfers("on");
  EXPECT_EQ(one.rma, fragments.rma);  // the same protocol: only what carries the bytes differs
  EXPECT_EQ(fragments.reads, 0u);
  EXPECT_EQ(fragments.data, 3 * kFragments);
  // Each transfer is over six times the single-copy size, and both ranks copy: rank 0
  // writes the first two thirds of each put where the cts says while rank 1 reads the last
  // third it was offered; of the get's reply rank 0 reads the first two thirds it was
  // offered while rank 1 writes the rest where rank 0's split answer says.
  EXPECT_EQ(one.writes, 2u + 1);
  EXPECT_EQ(one.reads, 2u + 1);
  // Per put a note, an offer and its answer; the get's offer, split answer, note and answer.
  EXPECT_EQ(one.data, 2u * 3 + 4);
  EXPECT_EQ(one.refused, 0u);
  // Rank 0's parts go through its mapping of rank 1's window; rank 1's parts are in rank 0's
  // own buffers, which nobody maps.
  EXPECT_EQ(one.mapped, 2u + 1);
}

TEST(SingleCopy, UnmappedWindowMemoryIsCopiedWithSystemCalls) {
  const Outcome one = transfers("on", kBytes, Flavor::create);
  EXPECT_EQ(one.rma, transfers("off", kBytes, Flavor::create).rma);
  EXPECT_EQ(one.writes, 2u + 1);
  EXPECT_EQ(one.reads, 2u + 1);
  EXPECT_EQ(one.data, 2u * 3 + 4);
  EXPECT_EQ(one.mapped, 0u);
  EXPECT_EQ(one.refused, 0u);
}

// 64 KiB is four times the single-copy size: shared where the origin's part is a system
// call, not where it is a memcpy through the mapping (from six times).
TEST(SingleCopy, MappedCopiesAreSharedOnlyFromSixTimesTheThreshold) {
  constexpr std::size_t kFour = 64 * 1024 + 8;
  const Outcome mapped = transfers("on", kFour);
  EXPECT_EQ(mapped.writes, 2u);
  EXPECT_EQ(mapped.reads, 1u);
  EXPECT_EQ(mapped.mapped, 3u);
  EXPECT_EQ(mapped.data, 2u + 2);
  const Outcome calls = transfers("on", kFour, Flavor::create);
  EXPECT_EQ(calls.writes, 2u + 1);
  EXPECT_EQ(calls.reads, 2u + 1);
  EXPECT_EQ(calls.mapped, 0u);
  EXPECT_EQ(calls.data, 2u * 3 + 4);
}

TEST(SingleCopy, RefusedCopyFallsBackToFragments) {
  const Outcome fragments = transfers("off", kBytes, Flavor::create);
  const Outcome refused = transfers("refuse", kBytes, Flavor::create);
  EXPECT_EQ(refused.rma, fragments.rma);
  EXPECT_EQ(refused.reads + refused.writes, 0u);
  // Each rank's first copy each way is refused and fragments follow: the first put's
  // offered third (after the offer and its answer) and its written part; the get's part
  // rank 1 was to write (after the offer and the split answer), then the part rank 0 was to
  // read (after the final answer); after that, fragments only. Split at a page, each
  // transfer's two parts take as many fragments as the whole here.
  EXPECT_EQ(refused.refused, 4u);
  EXPECT_EQ(refused.data, 3 * kFragments + 2 + 3);
}

// The kernel refuses the system calls but the origin maps the window: its parts go through
// the mapping, the target's parts (in rank 0's own buffers) fall back to fragments.
TEST(SingleCopy, RefusedCallsLeaveTheMappedCopies) {
  const Outcome refused = transfers("refuse");
  EXPECT_EQ(refused.rma, transfers("off").rma);
  // The first put's head and the get's head through the mapping; the first put's tail (read
  // by rank 1) and the get's tail (written by rank 1) refused. The refusal of the put's tail
  // turns single copies to rank 1 off for rank 0, so the second put goes in fragments.
  EXPECT_EQ(refused.mapped, 2u);
  EXPECT_EQ(refused.reads + refused.writes, 2u);
  EXPECT_EQ(refused.refused, 2u);
}

TEST(SingleCopy, TransfersWithinOneFragmentMoveInOneCopyToo) {
  const Outcome fragments = transfers("off", kOneFragment);
  const Outcome one = transfers("on", kOneFragment);
  EXPECT_EQ(one.rma, fragments.rma);
  EXPECT_EQ(fragments.data, 3u);
  // Not shared: rank 0 writes each put where the cts says and reads the get's reply it was
  // offered. Per put a note; the get's offer and its answer.
  EXPECT_EQ(one.writes, 2u);
  EXPECT_EQ(one.reads, 1u);
  EXPECT_EQ(one.data, 2u + 2);
  EXPECT_EQ(one.refused, 0u);
  EXPECT_EQ(one.mapped, 3u);
}

}  // namespace
}  // namespace rma
