// bulk.hpp — receiving large transfers: a receiver registers where the data of a transfer
// goes and gets an id; it sends the id in its cts (or p2p_cts); the sender's `data` fragments
// carry the id and their offset. Used by point-to-point rendezvous and by RMA rendezvous
// (large put, accumulate, get_accumulate; large get responses).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <unordered_map>

#include "progress/packet.hpp"

namespace rma::progress {

class BulkRegistry {
 public:
  using OnData = std::function<void(std::uint64_t offset, std::span<const std::byte> data)>;
  using OnDone = std::function<void()>;

  // `total` bytes will arrive; on_done runs after the last fragment's on_data.
  std::uint64_t expect(std::uint64_t total, OnData on_data, OnDone on_done);
  void handle(int src, const PacketHeader& h, std::span<const std::byte> payload);
  std::size_t active() const { return sinks_.size(); }

 private:
  struct Sink {
    std::uint64_t total;
    std::uint64_t received;
    OnData on_data;
    OnDone on_done;
  };
  std::unordered_map<std::uint64_t, Sink> sinks_;
  std::uint64_t next_ = 1;
};

}  // namespace rma::progress
