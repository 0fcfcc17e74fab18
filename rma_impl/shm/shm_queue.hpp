// shm_queue.hpp — a rank's receive queue in shared memory: many producers (every rank, itself
// included), one consumer (the rank's thread that holds the engine).
//
// One queue per rank instead of one ring per ordered pair keeps the transport's memory linear
// in the rank count. A producer reserves a record's bytes by advancing `tail` with a CAS,
// copies the packet header and payload in, and publishes the record by storing its first
// word (lengths, never zero) last. The consumer polls the first word of the record at
// `head`: a small packet is one cache line from producer to consumer, nothing else shared is
// touched. Records start on 64-byte boundaries; the consumer zeroes the first word of every
// 64-byte cell a handled record covered, then advances `head`, so a cell the producers get
// back always reads "not yet written". It does so later, in batches (tidy()): when a poll
// finds nothing, or once a quarter of the queue waits. Zeroing right after reading wrote to
// a line the producer had just written, and the next seq_cst operation (the reply's
// publication, the doorbell's count) waited for that line to come back: a cache-line
// handoff more on every packet's critical path. Records never wrap: a wrap marker sends
// the consumer back to the start. Packets from one producer stay in order (reservations
// are ordered by the CAS); packets of different producers interleave. A record may carry a
// one-bit mark for the transport above (shm_mailbox.hpp's order between its two paths).
//
// A producer that reserved and has not yet published holds up the records behind it (they
// are delivered once it publishes); the producer always notifies after publishing, so no
// wake-up is lost.
//
//   QueueWriter w(ctl, data, bytes, my_rank);
//   if (!w.try_write(h, payload)) { /* full: try later */ }
//   QueueReader r(ctl, data, bytes);
//   r.read([](int src, const PacketHeader&, span) {...}, 64);
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "progress/packet.hpp"

namespace rma::shm {

struct alignas(64) QueueCtl {
  alignas(64) std::atomic<std::uint64_t> tail{0};  // reserved up to here (producers, CAS)
  alignas(64) std::atomic<std::uint64_t> head{0};  // consumed and cleared up to here
};
static_assert(sizeof(QueueCtl) == 128);

namespace queue_detail {
inline constexpr std::size_t kCell = 64;
// The first word of a record: published last, zero while the cell is free or being written.
struct RecordHead {
  std::uint16_t cells;          // whole record in cells (at least one: the word is never 0)
  std::uint16_t src;            // the producer's rank
  std::uint32_t payload_bytes;  // and kMark; kWrap: skip to the start of the queue
};
static_assert(sizeof(RecordHead) == sizeof(std::uint64_t));
inline constexpr std::uint32_t kWrap = 0xffffffffu;
inline constexpr std::uint32_t kMark = 1u << 30;  // far above any payload
inline constexpr std::size_t kOverhead = sizeof(RecordHead) + sizeof(progress::PacketHeader);
constexpr std::size_t round_cell(std::size_t n) {
  return (n + kCell - 1) & ~(kCell - 1);
}

inline std::uint64_t pack(RecordHead rh) {
  std::uint64_t w;
  std::memcpy(&w, &rh, sizeof w);
  return w;
}
inline RecordHead unpack(std::uint64_t w) {
  RecordHead rh;
  std::memcpy(&rh, &w, sizeof rh);
  return rh;
}
inline std::atomic_ref<std::uint64_t> first_word(std::byte* at) {
  return std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(at));
}
}  // namespace queue_detail

// Largest queue: a wrap marker may span all but one cell of it.
inline constexpr std::size_t kMaxQueueBytes = std::size_t{0xffff} * queue_detail::kCell;
// Largest rank a record can name.
inline constexpr int kMaxQueueRanks = 0x10000;

// Largest payload the queue accepts: a record of at most half the queue, so that a record
// that needs a wrap marker before it still fits.
constexpr std::size_t queue_max_payload(std::size_t queue_bytes) {
  return queue_bytes / 2 - queue_detail::kOverhead;
}

// `bytes` is a power of two (positions are free-running counters masked into the queue).

// One producer's handle on a destination's queue. Not shared between threads of a process
// without the engine lock (its cached head is a plain member).
class QueueWriter {
 public:
  QueueWriter() = default;
  QueueWriter(QueueCtl* ctl, std::byte* data, std::size_t bytes, int src)
      : ctl_(ctl), data_(data), cap_(bytes), src_(static_cast<std::uint16_t>(src)) {}

  bool try_write(const progress::PacketHeader& h, std::span<const std::byte> payload,
                 bool mark = false) {
    using namespace queue_detail;
    const std::size_t rec = round_cell(kOverhead + payload.size());
    std::uint64_t t = ctl_->tail.load(std::memory_order_relaxed);
    std::size_t pos = 0, room_to_end = 0, need = 0;
    for (;;) {
      pos = t & (cap_ - 1);
      room_to_end = cap_ - pos;
      need = rec <= room_to_end ? rec : room_to_end + rec;
      // tail - head never exceeds cap_; a stale head_cache_ only makes this conservative.
      if (t - head_cache_ + need > cap_) {
        // Acquire: the consumer cleared the cells before publishing this head.
        head_cache_ = ctl_->head.load(std::memory_order_acquire);
        if (t - head_cache_ + need > cap_) return false;
      }
      if (ctl_->tail.compare_exchange_weak(t, t + need, std::memory_order_relaxed)) break;
    }
    std::size_t at = pos;
    if (rec > room_to_end) {
      first_word(data_ + at)
          .store(pack({cells(room_to_end), src_, kWrap}), std::memory_order_release);
      at = 0;
    }
    std::memcpy(data_ + at + sizeof(RecordHead), &h, sizeof h);
    if (!payload.empty()) std::memcpy(data_ + at + kOverhead, payload.data(), payload.size());
    // seq_cst, not just release: the sender then reads the receiver's doorbell, and this
    // store and that load must not be reordered (the doorbell's Dekker handshake).
    first_word(data_ + at)
        .store(pack({cells(rec), src_,
                     static_cast<std::uint32_t>(payload.size()) | (mark ? kMark : 0u)}),
               std::memory_order_seq_cst);
    return true;
  }

 private:
  static std::uint16_t cells(std::size_t bytes) {
    return static_cast<std::uint16_t>(bytes / queue_detail::kCell);
  }

  QueueCtl* ctl_ = nullptr;
  std::byte* data_ = nullptr;
  std::size_t cap_ = 0;
  std::uint64_t head_cache_ = 0;
  std::uint16_t src_ = 0;
};

class QueueReader {
 public:
  QueueReader() = default;
  QueueReader(QueueCtl* ctl, std::byte* data, std::size_t bytes)
      : ctl_(ctl),
        data_(data),
        cap_(bytes),
        head_(ctl->head.load(std::memory_order_relaxed)),
        cleared_(head_) {}

  // Any thread of the consumer's rank: is a record waiting? Reads the consumer's own
  // position (its records before it may not be cleared yet). A false answer while the
  // consumer is between taking a record and moving its position is possible; the consumer
  // is then awake and polling, and leaving that state re-checks (awake_leave).
  bool has_data() const {
    std::uint64_t h = position().load(std::memory_order_seq_cst);
    for (int tries = 0; tries < 4; ++tries) {
      if (queue_detail::first_word(data_ + (h & (cap_ - 1))).load(std::memory_order_seq_cst) != 0)
        return true;
      const std::uint64_t again = position().load(std::memory_order_seq_cst);
      if (again == h) return false;
      h = again;
    }
    return true;  // the consumer keeps moving: say yes, a spurious wake-up is harmless
  }

  // Clears the records handled since the last call and hands their cells back to the
  // producers. read() calls it when it finds nothing or a quarter of the queue waits (so
  // producers never wait on a busy consumer for long); a consumer that also takes packets
  // elsewhere calls it when its whole poll found nothing.
  void tidy() {
    using namespace queue_detail;
    if (cleared_ == head_) return;
    for (std::uint64_t c = cleared_; c != head_; c += kCell)
      first_word(data_ + (c & (cap_ - 1))).store(0, std::memory_order_relaxed);
    cleared_ = head_;
    // Release: the producers that read this head see the cells cleared.
    ctl_->head.store(head_, std::memory_order_release);
  }

  // The producer and mark of the next record, without taking it (a wrap marker on the way
  // is taken); false when no record is waiting.
  bool peek(int& src, bool& mark) {
    const std::uint64_t w = next_word();
    if (w == 0) return false;
    const queue_detail::RecordHead rh = queue_detail::unpack(w);
    src = static_cast<int>(rh.src);
    mark = (rh.payload_bytes & queue_detail::kMark) != 0;
    return true;
  }

  // Hands up to `max` records to fn(src, header, payload); returns how many.
  template <class F>
  int read(F&& fn, int max) {
    using namespace queue_detail;
    int n = 0;
    for (std::uint64_t w; n < max && (w = next_word()) != 0; ++n) {
      const std::size_t pos = head_ & (cap_ - 1);
      const RecordHead rh = unpack(w);
      progress::PacketHeader h;
      std::memcpy(&h, data_ + pos + sizeof rh, sizeof h);
      fn(static_cast<int>(rh.src), h,
         std::span<const std::byte>(data_ + pos + kOverhead, rh.payload_bytes & ~kMark));
      release(std::size_t{rh.cells} * kCell);
    }
    // Nothing waiting: the consumer is idle, a good moment to hand cells back (and a caller
    // that only reads must not leave a producer waiting on cells read long ago).
    if (n == 0) tidy();
    return n;
  }

 private:
  // The first word of the record at the head, wrap markers on the way taken; 0 when none
  // waits.
  std::uint64_t next_word() {
    using namespace queue_detail;
    for (;;) {
      const std::size_t pos = head_ & (cap_ - 1);
      const std::uint64_t w = first_word(data_ + pos).load(std::memory_order_acquire);
      if (w == 0 || unpack(w).payload_bytes != kWrap) return w;
      release(std::size_t{unpack(w).cells} * kCell);
    }
  }

  // Moves past the record; tidy() clears it later.
  void release(std::size_t bytes) {
    position().store(head_ + bytes, std::memory_order_release);
    if (head_ - cleared_ >= cap_ / 4) tidy();
  }

  // head_, as the rank's other threads read it (has_data); only the consumer writes it.
  std::atomic_ref<std::uint64_t> position() const {
    return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(head_));
  }

  QueueCtl* ctl_ = nullptr;
  std::byte* data_ = nullptr;
  std::size_t cap_ = 0;
  alignas(std::atomic_ref<std::uint64_t>::required_alignment) std::uint64_t head_ =
      0;                       // read up to here
  std::uint64_t cleared_ = 0;  // cleared and handed back up to here (ctl_->head)
};

}  // namespace rma::shm
