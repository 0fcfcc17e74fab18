#include "progress/bulk.hpp"

#include <utility>

namespace rma::progress {

std::uint64_t BulkRegistry::expect(std::uint64_t total, OnData on_data, OnDone on_done) {
  const std::uint64_t id = next_++;
  sinks_.emplace(id, Sink{total, 0, std::move(on_data), std::move(on_done)});
  return id;
}

void BulkRegistry::handle(int, const PacketHeader& h, std::span<const std::byte> payload) {
  auto it = sinks_.find(h.cookie);
  if (it == sinks_.end()) return;  // a transfer whose receiver gave up (cannot happen today)
  Sink& s = it->second;
  // A fragment that does not fit the transfer is not from a conforming peer: dropped, so it
  // cannot write past the memory the transfer was set up for.
  if (h.aux > s.total || payload.size() > s.total - h.aux) return;
  s.on_data(h.aux, payload);
  s.received += payload.size();
  if (s.received >= s.total) {
    OnDone done = std::move(s.on_done);
    sinks_.erase(it);
    if (done) done();
  }
}

}  // namespace rma::progress
