// shm_ring.hpp — a single-producer single-consumer ring of packets in shared memory.
//
// One ring per ordered pair of ranks. The producer copies a record (length word, packet
// header, payload) into the ring and publishes it by advancing `tail`; the consumer hands
// the record to a callback straight from ring memory and then advances `head`. Records
// never wrap: when one does not fit before the end, a wrap marker sends the consumer back to
// the start. Head and tail are free-running byte counters on separate cache lines; each side
// keeps a cached copy of the other's counter so the common case touches one shared line.
//
//   RingWriter w(ctl, data, bytes);   if (!w.try_write(h, payload)) /* full: try later */;
//   RingReader r(ctl, data, bytes);   r.read([](const PacketHeader&, span) {...}, 64);
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "progress/packet.hpp"

namespace rma::shm {

struct alignas(64) RingCtl {
  alignas(64) std::atomic<std::uint64_t> tail{0};  // written by the producer only
  alignas(64) std::atomic<std::uint64_t> head{0};  // written by the consumer only
};
static_assert(sizeof(RingCtl) == 128);

namespace ring_detail {
struct RecordHead {
  std::uint32_t record_bytes;   // whole record, a multiple of 8
  std::uint32_t payload_bytes;  // kWrap: skip to the start of the ring
};
inline constexpr std::uint32_t kWrap = 0xffffffffu;
inline constexpr std::size_t kOverhead = sizeof(RecordHead) + sizeof(progress::PacketHeader);
constexpr std::size_t round8(std::size_t n) { return (n + 7) & ~std::size_t{7}; }
}  // namespace ring_detail

// Largest record the ring accepts: half the ring, so that a wrap always leaves room.
constexpr std::size_t ring_max_payload(std::size_t ring_bytes) {
  return ring_bytes / 2 - ring_detail::kOverhead;
}

class RingWriter {
 public:
  RingWriter() = default;
  RingWriter(RingCtl* ctl, std::byte* data, std::size_t bytes)
      : ctl_(ctl), data_(data), cap_(bytes), tail_(ctl->tail.load(std::memory_order_relaxed)) {}

  bool try_write(const progress::PacketHeader& h, std::span<const std::byte> payload) {
    using namespace ring_detail;
    const std::size_t rec = round8(kOverhead + payload.size());
    const std::size_t pos = tail_ % cap_;
    const std::size_t room_to_end = cap_ - pos;
    const std::size_t need = rec <= room_to_end ? rec : room_to_end + rec;
    if (cap_ - (tail_ - head_cache_) < need) {
      head_cache_ = ctl_->head.load(std::memory_order_acquire);
      if (cap_ - (tail_ - head_cache_) < need) return false;
    }
    std::size_t at = pos;
    if (rec > room_to_end) {
      RecordHead wrap{static_cast<std::uint32_t>(room_to_end), kWrap};
      std::memcpy(data_ + at, &wrap, sizeof wrap);
      at = 0;
    }
    RecordHead rh{static_cast<std::uint32_t>(rec), static_cast<std::uint32_t>(payload.size())};
    std::memcpy(data_ + at, &rh, sizeof rh);
    std::memcpy(data_ + at + sizeof rh, &h, sizeof h);
    if (!payload.empty()) std::memcpy(data_ + at + kOverhead, payload.data(), payload.size());
    tail_ += need;
    // seq_cst, not just release: the sender then reads the receiver's doorbell, and this
    // store and that load must not be reordered (the doorbell's Dekker handshake).
    ctl_->tail.store(tail_, std::memory_order_seq_cst);
    return true;
  }

 private:
  RingCtl* ctl_ = nullptr;
  std::byte* data_ = nullptr;
  std::size_t cap_ = 0;
  std::uint64_t tail_ = 0;
  std::uint64_t head_cache_ = 0;
};

class RingReader {
 public:
  RingReader() = default;
  RingReader(RingCtl* ctl, std::byte* data, std::size_t bytes)
      : ctl_(ctl), data_(data), cap_(bytes), head_(ctl->head.load(std::memory_order_relaxed)) {}

  // Any thread: is a record waiting?
  bool has_data() const {
    return ctl_->tail.load(std::memory_order_seq_cst) != ctl_->head.load(std::memory_order_relaxed);
  }

  // Hands up to `max` records to fn(header, payload); returns how many.
  template <class F>
  int read(F&& fn, int max) {
    using namespace ring_detail;
    int n = 0;
    while (n < max) {
      if (head_ == tail_cache_) {
        tail_cache_ = ctl_->tail.load(std::memory_order_acquire);
        if (head_ == tail_cache_) break;
      }
      const std::size_t pos = head_ % cap_;
      RecordHead rh;
      std::memcpy(&rh, data_ + pos, sizeof rh);
      if (rh.payload_bytes == kWrap) {
        head_ += rh.record_bytes;
        continue;
      }
      progress::PacketHeader h;
      std::memcpy(&h, data_ + pos + sizeof rh, sizeof h);
      fn(h, std::span<const std::byte>(data_ + pos + kOverhead, rh.payload_bytes));
      head_ += rh.record_bytes;
      ctl_->head.store(head_, std::memory_order_release);
      ++n;
    }
    ctl_->head.store(head_, std::memory_order_release);
    return n;
  }

 private:
  RingCtl* ctl_ = nullptr;
  std::byte* data_ = nullptr;
  std::size_t cap_ = 0;
  std::uint64_t head_ = 0;
  std::uint64_t tail_cache_ = 0;
};

}  // namespace rma::shm
