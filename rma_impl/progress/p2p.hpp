// p2p.hpp — blocking point-to-point messages between ranks, matched by source and tag in the
// order they were sent (MPI's non-overtaking rule). Small messages travel eagerly in one
// packet; larger ones by rendezvous (p2p_rts, p2p_cts, then data fragments), so a message of
// any size needs no buffering beyond the transport's own.
//
// The runtime's barrier and collectives ride on the same matching with negative tags and
// their own packet types, so they are counted apart from the scripts' messages and from RMA.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "progress/bulk.hpp"
#include "progress/engine.hpp"

namespace rma::progress {

class P2p {
 public:
  P2p(Engine& engine, BulkRegistry& bulk, std::size_t eager_limit);

  // Blocking; the buffer may be reused when send returns. `type` is p2p_eager for scripts,
  // barrier or collective for the runtime's own traffic.
  Status send(EngineLock& lk, int dst, const void* buf, std::size_t bytes, int tag,
              PacketType type = PacketType::p2p_eager);
  Status recv(EngineLock& lk, int src, void* buf, std::size_t bytes, int tag,
              std::size_t* received);

  // Dissemination barrier over all ranks.
  Status barrier(EngineLock& lk);
  // Every rank's `mine`, in rank order (gather to rank 0, then broadcast).
  Result<std::vector<std::string>> allgather(EngineLock& lk, const std::string& mine);

  // Messages queued and receives posted, for state dumps.
  std::string describe() const;

 private:
  struct Unexpected {
    int src;
    int tag;
    bool rts;
    std::uint64_t bytes;
    std::uint64_t sender_cookie;
    std::vector<std::byte> data;
  };
  struct Posted {
    int src;
    int tag;
    std::byte* buf;
    std::size_t cap;
    std::vector<std::byte>* grow;  // receive a message of any size into this vector
    bool done = false;
    std::size_t len = 0;
  };
  struct RtsWait;

  Status receive(EngineLock& lk, int src, std::byte* buf, std::size_t cap,
                 std::vector<std::byte>* grow, int tag, std::size_t* received);
  void on_eager(int src, const PacketHeader& h, std::span<const std::byte> payload);
  void on_rts(int src, const PacketHeader& h);
  void on_cts(const PacketHeader& h);
  Posted* match_posted(int src, int tag);
  // Starts receiving a rendezvous message into `p` (sends the p2p_cts).
  void accept_rts(int src, std::uint64_t bytes, std::uint64_t sender_cookie, Posted* p);

  Engine& e_;
  BulkRegistry& bulk_;
  std::size_t eager_limit_;
  std::deque<Unexpected> unexpected_;
  std::vector<Posted*> posted_;  // in posting order; a vector: no allocation per recv
  std::unordered_map<std::uint64_t, RtsWait*> rts_waiting_;
  std::uint64_t next_cookie_ = 1;
};

// Tags the runtime reserves for itself (scripts use tags >= 0).
inline constexpr int kTagBarrier = -100;
inline constexpr int kTagAllgather = -200;

}  // namespace rma::progress
