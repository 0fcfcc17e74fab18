// rma/counters.hpp — what a rank sent, measured where it was sent.
//
// Every packet the core hands to a transport is counted by type, the same way on every
// backend, so message counts in reports are measured, never computed. Packet types are
// grouped in classes: `rma` packets are the protocol cost of RMA synchronization and data
// movement (what cases declare in `messages`); `p2p` and `collective` packets carry the
// scripts' own send/recv and barriers and window setup; `transport` traffic is what a
// transport adds underneath (fragments of large transfers, credits) and is shown beside.
// Direct-path windows send no packets; their remote memory operations are counted instead.
//
//   rma::Counters before = rt.counters();  ... ;  auto d = rt.counters() - before;
//   d.rma_messages();  d.sent[index(rma::PacketType::ack)];
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace rma {

enum class PacketType : std::uint8_t {
  // RMA protocol
  lock,          // lock request without an op
  lock_granted,  // the target's grant
  unlock,        // release when no op could carry it
  flush,         // completion request when no op could carry it
  ack,           // remote completion (unlock / flush / nocheck epochs)
  put,
  get,
  accumulate,
  get_accumulate,
  fetch_and_op,
  compare_and_swap,
  get_resp,  // data back for a get (also the ack when it carried the unlock)
  get_accumulate_resp,
  fetch_and_op_resp,
  compare_and_swap_resp,
  post,         // PSCW: the target's zero-byte post to each origin
  done,         // PSCW: complete's zero-byte done when no op carried it
  fence_count,  // fence: the closing fence's exchange of origin counts
  cts,          // rendezvous: the target is ready for a large op's data
  // scripts' point-to-point traffic and collectives
  p2p_eager,
  p2p_rts,
  p2p_cts,
  barrier,
  collective,
  // transport traffic under everything above
  data,  // one fragment of a large transfer after a cts / p2p_cts
  count_
};
inline constexpr int packet_type_count = static_cast<int>(PacketType::count_);

enum class PacketClass : std::uint8_t { rma, p2p, collective, transport };

std::string_view to_string(PacketType t);
std::string_view to_string(PacketClass c);
// The enum lists each class's types together, in the order of the classes: a type's class
// is the group it sits in (inline: every packet sent and received asks).
constexpr PacketClass class_of(PacketType t) {
  return t <= PacketType::cts          ? PacketClass::rma
         : t <= PacketType::p2p_cts    ? PacketClass::p2p
         : t <= PacketType::collective ? PacketClass::collective
                                       : PacketClass::transport;
}
constexpr int index(PacketType t) {
  return static_cast<int>(t);
}

// Remote memory operations done without packets (direct path), by kind.
enum class DirectOp : std::uint8_t {
  put,  // a copy into a peer's memory
  get,  // a copy out of a peer's memory
  accumulate,
  get_accumulate,
  fetch_and_op,
  compare_and_swap,
  cpu_atomic,   // elements updated by lock-free CPU atomics
  region_lock,  // striped region-lock acquisitions for non-atomic updates
  sync_word,    // operations on synchronization words (locks, fence, PSCW flags)
  am_fallback,  // ops a direct window handed to the am slots (counted, never silent)
  count_
};
inline constexpr int direct_op_count = static_cast<int>(DirectOp::count_);
std::string_view to_string(DirectOp d);
constexpr int index(DirectOp d) {
  return static_cast<int>(d);
}

struct Counters {
  std::array<std::uint64_t, packet_type_count> sent{};
  std::array<std::uint64_t, packet_type_count> bytes{};  // payload bytes by packet type
  std::array<std::uint64_t, direct_op_count> direct{};
  // Named counts a transport adds (fragments, credits, retries), by the transport's names.
  std::map<std::string, std::uint64_t> transport;
  // What the am protocol decided, by name: lock epochs whose ops went ahead of the grant
  // (held_epochs) and those that asked for the lock first (asked_epochs).
  std::map<std::string, std::uint64_t> protocol;
  // Derived-type ops on the am path: type descriptions sent (descriptions,
  // description_bytes) and ops whose target already held their type (cache_hits).
  std::map<std::string, std::uint64_t> datatypes;

  std::uint64_t total_sent(PacketClass c) const;
  std::uint64_t rma_messages() const { return total_sent(PacketClass::rma); }

  Counters& operator+=(const Counters& o);
  friend Counters operator-(Counters a, const Counters& b);
};

}  // namespace rma
