// packet.hpp — the fixed header every packet carries, on every transport.
//
// One 48-byte header, then an optional payload (data of a put, operands of an accumulate,
// the counts of a fence exchange). The meaning of the fields depends on the type; flags say
// what an RMA op packet carries besides its op: a piggybacked lock request, the unlock, an
// ack request, PSCW's done, the fence epoch's last-op mark, a rendezvous (data after a cts).
#pragma once

#include <cstdint>
#include <cstring>

#include "rma/counters.hpp"

namespace rma::progress {

enum PacketFlag : std::uint16_t {
  flag_lock_shared = 1u << 0,     // lock request piggybacked on this op (shared)
  flag_lock_exclusive = 1u << 1,  // lock request piggybacked on this op (exclusive)
  flag_unlock = 1u << 2,          // release the origin's lock when this op completes
  flag_ack_req = 1u << 3,         // answer with an ack (or this op's response) on completion
  flag_done = 1u << 4,            // PSCW: the origin's last op of this access epoch
  flag_fence_last = 1u << 5,      // fence: the origin's last op to this target in the epoch
  flag_rndv = 1u << 6,            // data follows after the target's cts
  flag_error = 1u << 7,           // ack / response: the target rejected the op (aux: class)
  // fewest protocol, PSCW: this op or done belongs to the origin's seq-th access epoch to the
  // target, which holds it until its seq-th post to the origin; on a post sent by an origin:
  // "send me your post for my access epoch seq" (the fallback when ops would not fit).
  flag_pscw = 1u << 8,
  // fewest protocol, fence: this op or fence_count belongs to the fence epoch the origin
  // closes at its seq-th fence call; the target holds an op until it has itself returned
  // from its (seq-1)-th fence call. The payload may end with a fence note (am_fence.cpp).
  flag_fence = 1u << 9,
  // The op carries a derived-type target layout: its payload starts with a LayoutPrefix
  // (am_win.hpp) and, the first time this origin sends the type on this window, the type's
  // description; its data follows.
  flag_layout = 1u << 10,
};
// Every flag above, for the tables that name them (the trace's flag names check they cover
// it): a new flag goes into the enum and here, as the next bit.
inline constexpr std::uint16_t kAllPacketFlags = (flag_layout << 1) - 1;
static_assert((kAllPacketFlags & (kAllPacketFlags + 1)) == 0, "flags are contiguous bits");

struct PacketHeader {
  PacketType type = PacketType::ack;
  std::uint8_t dtype = 0;
  std::uint8_t op = 0;
  std::uint8_t reserved0 = 0;
  std::uint16_t flags = 0;
  std::uint16_t reserved1 = 0;
  std::uint32_t win = 0;     // window id (p2p: tag)
  std::uint32_t seq = 0;     // fence epoch, post sequence, collective sequence
  std::uint64_t disp = 0;    // target byte offset (dynamic windows: address)
  std::uint64_t count = 0;   // elements for RMA ops, bytes for p2p and data
  std::uint64_t cookie = 0;  // origin's id, echoed in replies
  std::uint64_t aux = 0;     // second id, fragment offset, error class
};
static_assert(sizeof(PacketHeader) == 48);

// What a `data` packet carries (its reserved0): a fragment of a transfer; or, for a
// single-copy transfer (Engine::send_stream), the news that the sender wrote all of it
// (or, aux on, the rest) where the receiver's cts or split answer said, or the sender's offer of
// its bytes in place (the payload is their address) and the receiver's answer: it copied them out
// itself, or it could not (aux: the errno) and the sender streams fragments instead. To a
// large offer the receiver may first answer `split`: it copies the bytes before aux itself
// and asks the sender to write the rest to the address in the payload; its final answer
// follows once its own copy is done.
enum class DataKind : std::uint8_t { fragment, written, in_place, pulled, refused, split };
// A bulk id with this bit set names a transfer whose receiver registered where all of it
// goes (BulkRegistry::expect with a destination): only such transfers are offered in place.
inline constexpr std::uint64_t kBulkInPlace = std::uint64_t{1} << 63;

inline PacketHeader make_header(PacketType t) {
  PacketHeader h;
  h.type = t;
  return h;
}

}  // namespace rma::progress
