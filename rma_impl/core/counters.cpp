// Packet type names and classes, and counter arithmetic (rma/counters.hpp).
#include "rma/counters.hpp"

namespace rma {
namespace {

struct TypeInfo {
  std::string_view name;
  PacketClass cls;
};

// Indexed by PacketType; the static_assert below keeps it in step with the enum.
constexpr TypeInfo kTypes[] = {
    {"lock", PacketClass::rma},
    {"lock_granted", PacketClass::rma},
    {"unlock", PacketClass::rma},
    {"flush", PacketClass::rma},
    {"ack", PacketClass::rma},
    {"put", PacketClass::rma},
    {"get", PacketClass::rma},
    {"accumulate", PacketClass::rma},
    {"get_accumulate", PacketClass::rma},
    {"fetch_and_op", PacketClass::rma},
    {"compare_and_swap", PacketClass::rma},
    {"get_resp", PacketClass::rma},
    {"get_accumulate_resp", PacketClass::rma},
    {"fetch_and_op_resp", PacketClass::rma},
    {"compare_and_swap_resp", PacketClass::rma},
    {"post", PacketClass::rma},
    {"done", PacketClass::rma},
    {"fence_count", PacketClass::rma},
    {"cts", PacketClass::rma},
    {"p2p_eager", PacketClass::p2p},
    {"p2p_rts", PacketClass::p2p},
    {"p2p_cts", PacketClass::p2p},
    {"barrier", PacketClass::collective},
    {"collective", PacketClass::collective},
    {"data", PacketClass::transport},
};
static_assert(sizeof(kTypes) / sizeof(kTypes[0]) == packet_type_count);

constexpr std::string_view kDirect[] = {
    "put",        "get",         "accumulate", "get_accumulate", "fetch_and_op",
    "compare_and_swap", "cpu_atomic", "region_lock", "sync_word", "am_fallback",
};
static_assert(sizeof(kDirect) / sizeof(kDirect[0]) == direct_op_count);

}  // namespace

std::string_view to_string(PacketType t) { return kTypes[index(t)].name; }
PacketClass class_of(PacketType t) { return kTypes[index(t)].cls; }

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

std::string_view to_string(DirectOp d) { return kDirect[index(d)]; }

std::uint64_t Counters::total_sent(PacketClass c) const {
  std::uint64_t n = 0;
  for (int i = 0; i < packet_type_count; ++i)
    if (kTypes[i].cls == c) n += sent[i];
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
  return a;
}

}  // namespace rma
