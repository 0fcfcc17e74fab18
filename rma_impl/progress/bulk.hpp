// bulk.hpp — receiving large transfers: a receiver registers where the data of a transfer
// goes and gets an id; it sends the id in its cts (or p2p_cts); the sender's `data` fragments
// carry the id and their offset. Used by point-to-point rendezvous and by RMA rendezvous
// (large put, accumulate, get_accumulate; large get responses).
//
// A receiver that names the transfer's destination (contiguous memory for all of it: a put
// into window memory, a get's result buffer) may get the data in one copy instead, over a
// transport that can reach peers' memory: the sender writes it there itself (a put, whose
// cts says where) and says so, or offers its bytes in place and the receiver copies them
// out and answers, which frees the sender's buffer (a get's reply); a large put does both,
// the sender writing the head while the receiver copies the tail. Engine::send_stream;
// docs/protocol.md.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <unordered_map>

#include "progress/packet.hpp"

namespace rma::progress {

class Engine;

class BulkRegistry {
 public:
  using OnData = std::function<void(std::uint64_t offset, std::span<const std::byte> data)>;
  using OnDone = std::function<void()>;

  // `engine` answers offers in place (null: offers are refused).
  explicit BulkRegistry(Engine* engine = nullptr) : engine_(engine) {}

  // `total` bytes will arrive; on_done runs after the last fragment's on_data. With `dest`
  // (room for all `total` bytes, which on_data also writes there), the sender may offer the
  // bytes in place, and they are copied into `dest` without on_data.
  std::uint64_t expect(std::uint64_t total, OnData on_data, OnDone on_done,
                       std::byte* dest = nullptr);
  void handle(int src, const PacketHeader& h, std::span<const std::byte> payload);
  std::size_t active() const { return sinks_.size(); }

 private:
  struct Sink {
    std::uint64_t total;
    std::uint64_t received;
    OnData on_data;
    OnDone on_done;
    std::byte* dest;
  };
  using Sinks = std::unordered_map<std::uint64_t, Sink>;
  void take_in_place(int src, const PacketHeader& h, std::span<const std::byte> payload);
  static bool fits(const Sink& s, std::uint64_t offset, std::uint64_t count);
  void arrived(Sinks::iterator it, std::uint64_t count);

  Engine* engine_;
  Sinks sinks_;
  std::uint64_t next_ = 1;
};

}  // namespace rma::progress
