// rma/trace.hpp — the packet and call timeline of one rank process (`rmabench run --trace`).
//
// A bounded ring of fixed-size events: each RMA call the harness makes (name, target, bytes,
// start and end), each packet the progress engine hands to a transport (type, flags,
// destination, payload bytes, when) and each packet it receives (source, when it arrived and
// when it was handled — later than arrival when sync_only progress kept it for the next
// synchronization call). Times are CLOCK_MONOTONIC nanoseconds: one clock for every process of
// a host. When the ring is full the oldest event goes and dropped() counts it.
//
// Off unless enable() was called before the runtime exists: then every check is one relaxed
// load of a flag that never changes, and nothing else runs.
//
//   rma::trace::enable(16384);           // before the runtime, for the process lifetime
//   rma::trace::clear();                 // start of the interval of interest
//   auto events = rma::trace::snapshot(); // oldest first; rma::trace::dropped()
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rma::trace {

enum class EventKind : std::uint8_t {
  call,     // a library call: peer = target (-1: none), t0..t1
  sent,     // a packet left: peer = destination, t0 = handed to the transport
  arrived,  // a packet arrived and waits (sync_only): peer = source, t0 = arrival
  handled,  // a packet was handled: peer = source, t0 = arrival, t1 = handled
};

struct Event {
  EventKind kind = EventKind::call;
  std::uint8_t packet_type = 0;  // rma::PacketType, for packet events
  std::uint16_t flags = 0;       // the packet's flags
  std::int32_t rank = 0;         // who recorded it
  std::int32_t peer = -1;
  std::uint32_t seq = 0;        // packet number on the (source, destination) pair, from 1
  std::uint64_t bytes = 0;      // payload bytes; a call's data bytes
  std::int64_t t0 = 0, t1 = 0;  // CLOCK_MONOTONIC ns
  std::string_view call;        // call name (static storage)
};

namespace detail {
inline std::atomic<bool> g_enabled{false};
}

// True when this process records (one relaxed load; the value never changes once set).
inline bool on() {
  return detail::g_enabled.load(std::memory_order_relaxed);
}

// Turns recording on for the rest of the process, with room for `capacity` events.
void enable(std::size_t capacity);
// Forgets the events so far and the dropped count.
void clear();
// Records while true (the default once enabled); a benchmark pauses after its first iteration.
// Packet numbering goes on while paused, so later events still pair up across ranks.
void set_recording(bool on);
bool recording();

std::vector<Event> snapshot();
std::uint64_t dropped();

std::int64_t now_ns();
void record(const Event& e);
inline void call(std::string_view name, int rank, int target, std::uint64_t bytes, std::int64_t t0,
                 std::int64_t t1) {
  Event e;
  e.kind = EventKind::call;
  e.rank = rank;
  e.peer = target;
  e.bytes = bytes;
  e.t0 = t0;
  e.t1 = t1;
  e.call = name;
  record(e);
}

// Names of a packet's flags, in bit order: "lock_exclusive", "unlock", "ack_req", ...
std::vector<std::string> flag_names(std::uint16_t flags);

}  // namespace rma::trace
