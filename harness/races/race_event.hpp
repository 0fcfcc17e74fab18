// race_event.hpp — one event of a `--check races` log as a typed value, and its codec: the
// recorder (recorder.hpp) builds RaceEvents, the checker (checker.hpp, clocks.hpp) reads them,
// and only to_json / from_json (race_event.cpp) know the compact JSON form the ranks ship.
//
// The JSON form is the log's wire format, kept stable so stored logs and reports stay
// readable: an object per event with one-letter keys (race_event.cpp lists them), the kind as
// MPI's call name in snake_case or one of win, load, store, early.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "call/call.hpp"
#include "races/footprint.hpp"
#include "rma/types.hpp"

namespace harness::races {

// What an event records. The calls come first, in call.hpp's order, so that a call's kind
// converts by value (of()); then what is no call: a window's creation (its disp_unit), a load
// or store through window memory, and an op's buffer touched before the op completed.
// test, attach, detach and flush_local_all are never logged: the recorder logs a test that
// returned true as the wait it stands for, and the others order nothing between ranks.
enum class EventKind : std::uint8_t {
#define RMABENCH_RACE_CALL_KIND(name, family, completes, args) name,
  RMABENCH_CALLS(RMABENCH_RACE_CALL_KIND)
#undef RMABENCH_RACE_CALL_KIND
  // What is no call.
  win,
  load,
  store,
  early,
};

static_assert(static_cast<int>(EventKind::win) == call::kind_count);

constexpr EventKind of(call::Kind k) {
  return static_cast<EventKind>(k);
}
// The call an event records, if it is one.
constexpr std::optional<call::Kind> call_of(EventKind k) {
  if (static_cast<int>(k) >= call::kind_count) return std::nullopt;
  return static_cast<call::Kind>(k);
}

// How an event touches memory: a remote op at its target (read, write, accumulate or atomic),
// or a load or store by the rank itself (load/store events; early: the access that came too
// soon, to the op's buffer).
enum class AccessMode : std::uint8_t { none, read, write, accumulate, load, store };

// Which of an op's local buffers an early access touched.
enum class Buffer : std::uint8_t { origin, result };

struct RaceEvent {
  EventKind kind = EventKind::barrier;
  std::string at;  // script file:line (none for win)
  int w = -1;      // window id; -1: a job call (barrier, send, recv)
  int t = -1;      // target, peer, or whose window memory a load/store touches
  // win: the window's disp_unit, and whether it is dynamic (displacements are addresses).
  int du = 1;
  bool dyn = false;
  // load, store: window bytes [lo, hi); early: bytes [lo, hi) of the op's buffer.
  std::uint64_t lo = 0, hi = 0;
  // A remote op's bytes at its target: d (in the target's disp_unit) and n bytes from it, or
  // a derived-type layout's byte runs from it (cov: one covering run; grid: footprint.hpp).
  std::uint64_t d = 0, n = 0;
  std::optional<std::vector<Run>> runs;
  bool cov = false, grid = true;
  AccessMode mode = AccessMode::none;
  // Accumulates and atomics: the op (compare_and_swap: replace, a conditional one) and the
  // basic type of the target elements.
  rma::Op op = rma::Op::replace;
  rma::Dtype dt = rma::Dtype::u8;
  // Atomics: the value written, compare_and_swap's compare value, and when the call returned
  // the old value (ret), that value.
  std::uint64_t v = 0, cv = 0, old = 0;
  bool ret = false;
  unsigned a = 0;      // fence, lock_all, post, start, lock: rma::Assert bits
  std::vector<int> g;  // post, start: the group
  bool x = false;      // lock: exclusive
  int tag = 0;         // send, recv
  // early: the op whose buffer was touched, and where it was issued.
  call::Kind call = call::Kind::put;
  std::string call_at;
  Buffer buf = Buffer::origin;

  bool operator==(const RaceEvent&) const = default;
};

// Whether the kind is a remote op (its bytes are at a target: d with n or runs).
constexpr bool remote_op(EventKind k) {
  switch (k) {
    case EventKind::put:
    case EventKind::get:
    case EventKind::accumulate:
    case EventKind::get_accumulate:
    case EventKind::fetch_and_op:
    case EventKind::compare_and_swap:
    case EventKind::rput:
    case EventKind::rget:
    case EventKind::raccumulate:
    case EventKind::rget_accumulate:
      return true;
    default:
      return false;
  }
}

std::string_view to_string(EventKind k);
std::string_view to_string(Buffer b);
// The op's name as the log spells it: compare_and_swap's is "cas".
std::string_view op_name(const RaceEvent& e);

nlohmann::json to_json(const RaceEvent& e);
// Throws std::runtime_error naming the event for an unknown kind, mode, op, type, call or
// buffer, and nlohmann::json's errors for a value of the wrong type.
RaceEvent from_json(const nlohmann::json& j);

// A rank's whole log: an array of events (from_log: null, a rank that sent none, is empty).
nlohmann::json to_log(const std::vector<RaceEvent>& events);
std::vector<RaceEvent> from_log(const nlohmann::json& log);

}  // namespace harness::races
