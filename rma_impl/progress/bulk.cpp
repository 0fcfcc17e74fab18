// Bulk transfers at the receiver: fragments written where their sink says, and offers in
// place copied straight out of the sender's memory through the transport.
#include "progress/bulk.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "progress/engine.hpp"

namespace rma::progress {

std::uint64_t BulkRegistry::expect(std::uint64_t total, OnData on_data, OnDone on_done,
                                   std::byte* dest) {
  std::uint64_t id = next_++;
  if (dest && total) id |= kBulkInPlace;
  sinks_.emplace(id, Sink{total, 0, std::move(on_data), std::move(on_done), dest});
  return id;
}

void BulkRegistry::handle(int src, const PacketHeader& h, std::span<const std::byte> payload) {
  if (h.reserved0 == static_cast<std::uint8_t>(DataKind::in_place)) [[unlikely]] {
    take_in_place(src, h, payload);
    return;
  }
  if (h.reserved0 == static_cast<std::uint8_t>(DataKind::written)) [[unlikely]] {
    // The sender wrote [aux, aux + count) to where this sink's cts said
    // (Engine::in_place_address): all of it, or the head while this rank copies the tail.
    auto it = sinks_.find(h.cookie);
    if (it == sinks_.end() || !it->second.dest || !fits(it->second, h.aux, h.count)) return;
    arrived(it, h.count);
    return;
  }
  auto it = sinks_.find(h.cookie);
  if (it == sinks_.end()) return;  // a transfer whose receiver gave up (cannot happen today)
  Sink& s = it->second;
  // A fragment that does not fit the transfer is not from a conforming peer: dropped, so it
  // cannot write past the memory the transfer was set up for.
  if (h.aux > s.total || payload.size() > s.total - h.aux) return;
  s.on_data(h.aux, payload);
  arrived(it, payload.size());
}

// Bytes that came by another way than fragments claim a range inside the transfer, and no
// more than is missing: a packet that does not is not from a conforming peer.
bool BulkRegistry::fits(const Sink& s, std::uint64_t offset, std::uint64_t count) {
  return count && offset <= s.total && count <= s.total - offset && count <= s.total - s.received;
}

void BulkRegistry::arrived(Sinks::iterator it, std::uint64_t count) {
  Sink& s = it->second;
  s.received += count;
  if (s.received < s.total) return;
  OnDone done = std::move(s.on_done);
  sinks_.erase(it);
  if (done) done();
}

// The sender offers the transfer, or its tail from h.aux on, at an address of its own:
// copied into the sink's destination in one go. The answer goes before on_done's packets (an ack, a
// reply), so the sender's buffer is free (local completion) no later than the op completes
// remotely. When the copy is refused the sink stays, and the sender's fragments fill it.
void BulkRegistry::take_in_place(int src, const PacketHeader& h,
                                 std::span<const std::byte> payload) {
  auto it = sinks_.find(h.cookie);
  std::uint64_t addr = 0;
  std::uint64_t own = h.count;  // what this rank copies; the sender writes the rest
  int err = EINVAL;  // not an offer a conforming sender makes: it falls back to fragments
  if (it != sinks_.end() && it->second.dest && fits(it->second, h.aux, h.count) &&
      payload.size() >= sizeof addr && engine_) {
    std::memcpy(&addr, payload.data(), sizeof addr);
    std::byte* dest = it->second.dest + h.aux;
    // A whole large offer: the sender writes the last third meanwhile (Engine::on_split).
    if (h.aux == 0)
      own = std::min<std::uint64_t>(engine_->shared_copy_split(h.count, src, addr), h.count);
    if (own < h.count)
      engine_->answer_split(src, h.cookie, own, reinterpret_cast<std::uint64_t>(dest + own));
    err = engine_->transport().read_peer(src, addr, {dest, own});
  }
  if (err && engine_) engine_->single_copy_refused(src, err);
  if (engine_) engine_->answer_in_place(src, h.cookie, err);
  if (err) return;
  arrived(it, own);
}

}  // namespace rma::progress
