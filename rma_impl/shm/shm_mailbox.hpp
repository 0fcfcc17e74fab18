// shm_mailbox.hpp — one 128-byte slot per ordered pair of ranks for small packets, beside the
// receive queues, in jobs of a few ranks.
//
// Why: a queue packet takes a fresh cell, a line the producer must first own and the
// consumer then misses on, and its reader clears it again. A slot is the same two lines
// every time, so a request and its reply cost about one line handoff each way: on the
// transport alone an 8-byte round trip measured 1.4–1.6× the cache-line floor through slots
// against 2.5× through the queues (docs/performance.md, "a mailbox per pair").
//
// The slot src→dst is written only by src: its first word publishes a packet (a parity bit
// that flips per packet) and carries src's acknowledgment of the packets dst posted in the
// opposite slot (another parity bit). So the consumer never writes the producer's slot, and
// the acknowledgment usually travels inside the reply. The consumer copies a packet out
// before handing it on, and acknowledges it in its own next post to that peer, or, when no
// post came first, once the transport's polls have found nothing for a while.
//
// A producer posts only into a slot its consumer has acknowledged, and only when the
// consumer has sent it something since its last post (an answer); otherwise the packet goes
// to the queue. Order per producer survives the two paths: each queue record carries the
// parity of the producer's posts so far (the consumer takes the slot first when that post is
// still there), and each post carries how many queue records the producer sent the consumer
// before it (the slot waits until the consumer has taken that many).
//
// Every rank polls one slot per peer, so the slots serve jobs of at most kMailboxRanks.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "progress/packet.hpp"
#include "shm/shm_answer_prefetch.hpp"
#include "shm/shm_queue.hpp"

namespace rma::shm {

inline constexpr int kMailboxRanks = 16;
inline constexpr std::size_t kMailboxPayload = 72;

struct alignas(128) MailboxSlot {
  std::atomic<std::uint64_t> word{0};
  std::byte bytes[sizeof(progress::PacketHeader) + kMailboxPayload];  // header, then payload
};
static_assert(sizeof(MailboxSlot) == 128);

// This rank's view of the job's slots (slot src→dst at slots[src * ranks + dst]). All use,
// producing and consuming, is under the rank's engine lock, except has_data().
class Mailboxes {
 public:
  Mailboxes() = default;
  Mailboxes(MailboxSlot* slots, int ranks, int me)
      : slots_(slots),
        ranks_(ranks),
        me_(me),
        posted_(static_cast<std::size_t>(ranks)),
        heard_(static_cast<std::size_t>(ranks), 1),  // a first packet may take the slot
        consumed_(static_cast<std::size_t>(ranks)),
        queued_(static_cast<std::size_t>(ranks)),
        taken_(static_cast<std::size_t>(ranks)),
        shadow_(static_cast<std::size_t>(ranks)),
        prefetch_(ranks) {}

  bool enabled() const { return slots_ != nullptr; }
  // Whether a take asks at once for the line of our slot back to its producer
  // (prefetch_for_write): adaptive, as the transport runs; the benchmark measures all three.
  void set_prefetch(AnswerPrefetch::Mode m) { prefetch_.set_mode(m); }
  // Packets this rank sent through a slot (the rest went through the queues).
  std::uint64_t posts() const { return posts_.load(std::memory_order_relaxed); }
  // Takes that asked early for the line of the answer's slot.
  std::uint64_t prefetches() const { return prefetches_.load(std::memory_order_relaxed); }

  // Producer: posts into the slot to dst when the packet fits, dst has sent us something
  // since our last post, and the slot is free; false sends the packet to the queue instead
  // (then record_mark() and queued()). A packet that answers one is what the slot serves: a
  // stream one way would find the slot still full most of the time, and each look costs a
  // line the consumer writes, where the queue lets the producer run ahead.
  bool try_post(int dst, const progress::PacketHeader& h, std::span<const std::byte> payload) {
    const auto d = static_cast<std::size_t>(dst);
    if (!enabled() || dst == me_ || payload.size() > kMailboxPayload || !heard_[d]) return false;
    // Acquire: dst copied our last post out before acknowledging it.
    if (ack_bit(slot(dst, me_).word.load(std::memory_order_acquire)) != posted_[d]) {
      // Both sides posted before taking the other's post: each waits for an acknowledgment
      // that only the other's next post would carry. Send ours now.
      if (pending_acks_ & bit(dst)) {
        pending_acks_ &= ~bit(dst);
        publish(d, shadow_[d], std::memory_order_release);
      }
      return false;
    }
    const bool timed = prefetch_.timing(d);
    const auto start = timed ? Clock::now() : Clock::time_point{};
    MailboxSlot& out = slot(me_, dst);
    std::memcpy(out.bytes, &h, sizeof h);
    if (!payload.empty()) std::memcpy(out.bytes + sizeof h, payload.data(), payload.size());
    posted_[d] ^= 1u;
    heard_[d] = 0;
    posts_.store(posts_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    pending_acks_ &= ~bit(dst);  // the post carries it
    // seq_cst, like the queue's publication: the doorbell's handshake follows.
    publish(d, static_cast<std::uint64_t>(payload.size()) |
                   std::uint64_t{posted_[d]} << kPostedShift |
                   (queued_[d] & 0xffffu) << kQueuedShift);
    // The seq_cst store returns once this core owns the slot's lines: the time is how long
    // they took to come from dst.
    if (timed)
      prefetch_.timed(
          d, std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
    return true;
  }
  // Producer: the mark a queue record to dst carries, and the count after it was written.
  bool record_mark(int dst) const {
    return enabled() && posted_[static_cast<std::size_t>(dst)] != 0;
  }
  void queued(int dst) {
    if (enabled()) ++queued_[static_cast<std::size_t>(dst)];
  }

  // Consumer: hands every post that is next in its producer's order to fn(src, header,
  // payload), at most `max`; returns how many.
  template <class F>
  int take_all(F&& fn, int max) {
    int n = 0;
    if (max <= 0) return n;
    // Down this rank's column of slots by pointer: every poll walks it, most for nothing.
    const MailboxSlot* in = slots_ + me_;
    for (int src = 0; src < ranks_; ++src, in += ranks_)
      if (src != me_ && take(src, *in, fn) && ++n == max) break;
    return n;
  }
  // Consumer (enabled() only, like record_taken): a queue record from src with `mark` is next;
  // first hands over the post that precedes it, if it is still in the slot. Returns whether it
  // handed one over.
  template <class F>
  bool before_record(int src, bool mark, F&& fn) {
    if (mark == (consumed_[static_cast<std::size_t>(src)].load(std::memory_order_relaxed) != 0))
      return false;
    return take(src, slot(src, me_), fn);
  }
  void record_taken(int src) {
    heard_[static_cast<std::size_t>(src)] = 1;
    auto& t = taken_[static_cast<std::size_t>(src)];
    t.store(t.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  // Consumer: acknowledges the posts taken that no post of ours has acknowledged yet.
  void flush_acks() {
    while (pending_acks_ != 0) {
      const int src = __builtin_ctzll(pending_acks_);
      pending_acks_ &= pending_acks_ - 1;
      // Release is enough: no handshake reads an acknowledgment and then a doorbell.
      publish(static_cast<std::size_t>(src), shadow_[static_cast<std::size_t>(src)],
              std::memory_order_release);
    }
  }

  // Any thread of the rank: does a slot hold a post that can be taken now? A post still
  // waiting for earlier queue records does not count: those records are the queue's
  // has_data() (their producer rings after publishing them), and the poll that takes them
  // counts them before the queue's head moves and then takes the posts they held back.
  bool has_data() const {
    if (!enabled()) return false;
    for (int src = 0; src < ranks_; ++src) {
      if (src == me_) continue;
      const auto s = static_cast<std::size_t>(src);
      const std::uint64_t w = slot(src, me_).word.load(std::memory_order_seq_cst);
      if (posted_bit(w) != consumed_[s].load(std::memory_order_relaxed) &&
          in_order(w, taken_[s].load(std::memory_order_relaxed)))
        return true;
    }
    return false;
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr unsigned kPostedShift = 8, kAckShift = 9, kQueuedShift = 16;
  static std::uint64_t bit(int r) { return std::uint64_t{1} << r; }
  static std::uint8_t posted_bit(std::uint64_t w) {
    return static_cast<std::uint8_t>(w >> kPostedShift & 1u);
  }
  static std::uint8_t ack_bit(std::uint64_t w) {
    return static_cast<std::uint8_t>(w >> kAckShift & 1u);
  }

  MailboxSlot& slot(int src, int dst) const {
    return slots_[static_cast<std::size_t>(src) * static_cast<std::size_t>(ranks_) +
                  static_cast<std::size_t>(dst)];
  }

  // Queue counts are compared in 16 bits: a post is ahead of its consumer by at most the
  // records one queue holds.
  static_assert(kMaxQueueBytes / queue_detail::kCell <= 0xffff);
  static bool in_order(std::uint64_t w, std::uint64_t taken) {
    return (w >> kQueuedShift & 0xffffu) == (taken & 0xffffu);
  }

  // Writes this rank's word of the slot to `peer`: `w` with our current acknowledgment.
  void publish(std::size_t peer, std::uint64_t w,
               std::memory_order order = std::memory_order_seq_cst) {
    w = (w & ~(std::uint64_t{1} << kAckShift)) |
        std::uint64_t{consumed_[peer].load(std::memory_order_relaxed)} << kAckShift;
    shadow_[peer] = w;
    slot(me_, static_cast<int>(peer)).word.store(w, order);
  }

  // Asks for the line holding our slot's word to src in the state a store needs, while the
  // packet just taken from src is handled: our next packet to src goes into that slot, src
  // holds the line (it polls it), and a store alone asks for it only when it executes.
  // Where a line takes long to cross it saves a transfer; where it crosses fast src takes
  // the line back before the answer is written and the line moves twice. AnswerPrefetch
  // decides per peer from the time posts wait for the line; BM_PingPongAnswerDelay's
  // prefetch:0, :1 and :2 show off, on and that decision.
  static void prefetch_for_write(const MailboxSlot* p) {
#if defined(__x86_64__) || defined(__i386__)
    asm volatile("prefetchw %0" : : "m"(p->word));
#else
    __builtin_prefetch(p, 1, 3);
#endif
  }

  // `in` is slot(src, me_).
  template <class F>
  bool take(int src, const MailboxSlot& in, F& fn) {
    const auto s = static_cast<std::size_t>(src);
    const std::uint64_t w = in.word.load(std::memory_order_acquire);
    const std::uint8_t had = consumed_[s].load(std::memory_order_relaxed);
    if (posted_bit(w) == had) return false;                                     // nothing new
    if (!in_order(w, taken_[s].load(std::memory_order_relaxed))) return false;  // queue first
    hand_over(src, in, w, had, fn);
    return true;
  }

  // Out of line: a poll that finds nothing, most of them, then keeps a small frame (no room
  // for a copy of the slot) and saves no registers for it.
  template <class F>
  [[gnu::noinline]] void hand_over(int src, const MailboxSlot& in, std::uint64_t w,
                                   std::uint8_t had, F& fn) {
    const auto s = static_cast<std::size_t>(src);
    if (prefetch_.at_take(s)) {
      prefetch_for_write(&slot(me_, src));
      prefetches_.store(prefetches_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
    // The whole slot, a copy of fixed size (a few vector moves) instead of a header and then
    // a loop over the payload's bytes: the producer writes none of it before our
    // acknowledgment, so the bytes past the payload are only stale, never torn.
    alignas(8) std::byte copy[sizeof in.bytes];
    std::memcpy(copy, in.bytes, sizeof copy);
    progress::PacketHeader h;
    std::memcpy(&h, copy, sizeof h);
    consumed_[s].store(had ^ 1u, std::memory_order_relaxed);
    heard_[s] = 1;
    pending_acks_ |= bit(src);
    fn(src, h, std::span<const std::byte>(copy + sizeof h, w & 0xffu));
  }

  MailboxSlot* slots_ = nullptr;
  int ranks_ = 0;
  int me_ = 0;
  std::vector<std::uint8_t> posted_;  // parity of our posts to each peer
  std::vector<std::uint8_t> heard_;   // each peer sent us something since our last post to it
  std::vector<std::atomic<std::uint8_t>> consumed_;  // parity of each peer's posts we took
  std::vector<std::uint64_t> queued_;                // queue records we sent each peer
  std::vector<std::atomic<std::uint64_t>> taken_;    // queue records we took from each peer
  std::vector<std::uint64_t> shadow_;                // our last word in the slot to each peer
  std::uint64_t pending_acks_ = 0;                   // peers whose posts we took, unacknowledged
  AnswerPrefetch prefetch_;
  std::atomic<std::uint64_t> posts_{0};
  std::atomic<std::uint64_t> prefetches_{0};
};

static_assert(kMailboxRanks <= 64, "pending acknowledgments are a 64-bit mask");

}  // namespace rma::shm
