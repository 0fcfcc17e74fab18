// Packet type names and counter arithmetic (rma/counters.hpp).
#include "rma/counters.hpp"

namespace rma {
namespace {

// Indexed by PacketType; the static_assert below keeps it in step with the enum.
constexpr std::string_view kTypes[] = {
    "lock",
    "lock_granted",
    "unlock",
    "flush",
    "ack",
    "put",
    "get",
    "accumulate",
    "get_accumulate",
    "fetch_and_op",
    "compare_and_swap",
    "get_resp",
    "get_accumulate_resp",
    "fetch_and_op_resp",
    "compare_and_swap_resp",
    "post",
    "done",
    "fence_count",
    "cts",
    "p2p_eager",
    "p2p_rts",
    "p2p_cts",
    "barrier",
    "collective",
    "data",
};
static_assert(sizeof(kTypes) / sizeof(kTypes[0]) == packet_type_count);

constexpr std::string_view kDirect[] = {
    "put",        "get",         "accumulate", "get_accumulate", "fetch_and_op", "compare_and_swap",
    "cpu_atomic", "region_lock", "sync_word",  "am_fallback",
};
static_assert(sizeof(kDirect) / sizeof(kDirect[0]) == direct_op_count);

}  // namespace

std::string_view to_string(PacketType t) {
  return kTypes[index(t)];
}

std::string_view to_string(PacketClass c) {
  switch (c) {
    case PacketClass::rma:
      return "rma";
    case PacketClass::p2p:
      return "p2p";
    case PacketClass::collective:
      return "collective";
    case PacketClass::transport:
      return "transport";
  }
  return "?";
}

std::string_view to_string(DirectOp d) {
  return kDirect[index(d)];
}

std::uint64_t Counters::total_sent(PacketClass c) const {
  std::uint64_t n = 0;
  for (int i = 0; i < packet_type_count; ++i)
    if (class_of(static_cast<PacketType>(i)) == c) n += sent[i];
  return n;
}

Counters& Counters::operator+=(const Counters& o) {
  for (int i = 0; i < packet_type_count; ++i) {
    sent[i] += o.sent[i];
    bytes[i] += o.bytes[i];
  }
  for (int i = 0; i < direct_op_count; ++i) direct[i] += o.direct[i];
  for (const auto& [k, v] : o.transport) transport[k] += v;
  for (const auto& [k, v] : o.protocol) protocol[k] += v;
  for (const auto& [k, v] : o.datatypes) datatypes[k] += v;
  return *this;
}

Counters operator-(Counters a, const Counters& b) {
  for (int i = 0; i < packet_type_count; ++i) {
    a.sent[i] -= b.sent[i];
    a.bytes[i] -= b.bytes[i];
  }
  for (int i = 0; i < direct_op_count; ++i) a.direct[i] -= b.direct[i];
  for (const auto& [k, v] : b.transport) a.transport[k] -= v;
  for (const auto& [k, v] : b.protocol) a.protocol[k] -= v;
  for (const auto& [k, v] : b.datatypes) a.datatypes[k] -= v;
  return a;
}

}  // namespace rma
