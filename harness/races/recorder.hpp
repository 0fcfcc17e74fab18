// recorder.hpp — what `--check races` records on one rank: every remote access a script
// issues, every load and store through window memory, and every synchronization call, in
// program order. The checker (checker.hpp) reads all ranks' logs after the case.
//
// The Lua bindings feed it (harness/lua/); it knows nothing of Lua. A rank has at most one
// active recorder (Recorder::active()), so the buffer methods cost a null check when the
// checker is off. Consecutive element accesses of one line to adjacent bytes are merged into
// one range, so a loop over a buffer is one event. A derived-type layout is recorded as the
// byte runs it touches (footprint.hpp), at the target and in the op's local buffers.
//
// It also checks, by itself, the rule that needs no other rank: an op's origin buffer is not
// stored into, and its result buffer not touched, before the call that completes the op at
// the origin (flush_local, flush, unlock, fence, complete, a request's wait...); a breach is
// logged as an `early` event naming both lines.
//
// Bounded memory: a lock epoch (lock .. unlock of one target) or a compare_and_swap critical
// section (the acquiring compare_and_swap .. the releasing atomic) that repeats, event for
// event, one already recorded since this rank's last synchronization with another rank
// (barrier, fence, post, start, complete, wait, send, recv, free) is retired: every access in
// it has a twin with the same range, line and lock, issued and completed between the same two
// synchronizations, so every other rank's event is ordered with both or with neither — the
// checker finds the same pairs without it. Consecutive failed compare_and_swaps of one line
// (a spin) are one event.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "call/call.hpp"
#include "races/footprint.hpp"
#include "races/race_event.hpp"

namespace harness::races {

// Window memory this rank can load and store: its own, or a peer's through shared_query.
struct Region {
  const std::byte* lo = nullptr;
  const std::byte* hi = nullptr;
  int win = -1;
  int owner = -1;           // whose window memory it is
  std::uint64_t first = 0;  // byte offset in the window (dynamic: the address) of `lo`
};

// What the bindings know of a call beyond the Call: the request it returned (a key for
// Recorder::request_done), whether an atomic returned its old value (complete at once).
struct CallExtra {
  const void* request = nullptr;
  bool returned = false;
};

class Recorder {
 public:
  explicit Recorder(int rank) : rank_(rank) {}

  static Recorder* active();
  static void set_active(Recorder* r);

  // Window memory, as the bindings hand it out: a window's own memory (create, allocate,
  // shared), a peer's segment (shared_query), attached memory (dynamic: offsets are addresses).
  void window(int win, int disp_unit, bool dynamic);
  void memory(int win, int owner, const void* base, std::size_t bytes, std::uint64_t first);

  // The region holding [p, p+bytes), or null: the bindings ask before building a position.
  const Region* find(const void* p, std::size_t bytes) const;
  // A load or store by this rank of bytes in `r`.
  void local(const Region& r, const void* p, std::size_t bytes, bool store, std::string where);

  using Extra = CallExtra;
  // A call that succeeded (for `test`: only one that returned true). `win` is the window's
  // id, -1 for job calls.
  void call(const call::Call& c, int win, std::string where, Extra extra = {});
  // A request's wait, or a test that returned true: its op is complete at the origin.
  void request_done(const void* request);
  // Whether [p, p+bytes) overlaps a buffer of an op not yet complete at the origin in a way
  // the rules forbid (a store into an origin buffer, any access to a result buffer); if so
  // the bindings call early() with the script position.
  bool in_flight(const void* p, std::size_t bytes, bool store) const;
  void early(const void* p, std::size_t bytes, bool store, const std::string& where);
  // The harness's own barriers between hooks.
  void barrier(std::string where);

  // The log in its wire form (race_event.hpp).
  nlohmann::json to_json() const;
  const std::vector<RaceEvent>& log() const { return log_; }
  std::size_t events() const { return log_.size(); }
  // Lock epochs and critical sections retired as repeats (for tests and the report).
  std::size_t retired() const { return retired_; }

 private:
  struct WindowInfo {
    int disp_unit = 1;
    bool dynamic = false;
  };
  // A buffer an op reads (origin) or writes (result) until it completes at the origin:
  // [lo, hi) covers it; a derived-type layout touches only `runs` (offsets from lo).
  struct Flight {
    const std::byte* lo = nullptr;
    const std::byte* hi = nullptr;
    std::vector<Run> runs;  // empty: all of [lo, hi)
    bool result = false;
    int win = -1, target = -1;
    const void* request = nullptr;
    call::Kind call = call::Kind::put;
    std::string at;
  };
  // A remote op (call() without its completion part); `e` holds its kind, line and window.
  void access(const call::Call& c, int win, const std::string& where, Extra extra, RaceEvent e);
  // An atomic that returned its old value: a spin attempt, or a compare_and_swap lock's
  // acquire or release.
  void returned(const call::Call& c, int win, RaceEvent e);
  void complete_flights(int win, int target, const void* request);
  // The buffer at `p` as `layout` touches it (no layout: `bytes` from p).
  void add_flight(const void* p, std::size_t bytes, const rma::Layout* layout, bool result, int win,
                  int target, const void* request, const call::Call& c, const std::string& at);
  // The first bytes of flight `f` that [b, b+bytes) touches, as offsets from f.lo.
  static std::optional<std::pair<std::uint64_t, std::uint64_t>> touched(const Flight& f,
                                                                        const std::byte* b,
                                                                        std::size_t bytes);
  // Retire the log's tail from `first` if an identical tail was kept since the last
  // synchronization with another rank.
  void retire_repeat(std::size_t first);
  void synchronized() { units_.clear(); }
  std::vector<Flight> flights_;
  std::vector<std::pair<std::string, std::string>> early_seen_;
  std::vector<std::pair<std::pair<int, int>, std::size_t>>
      open_locks_;  // (win, target) -> log index
  struct Section {
    int win, target;
    std::uint64_t disp, held;
    std::size_t first;
  };
  std::vector<Section> sections_;  // open compare_and_swap critical sections
  // The units kept since the last synchronization.
  std::vector<std::vector<RaceEvent>> units_;
  std::size_t retired_ = 0;
  int rank_;
  std::vector<Region> regions_;
  std::vector<std::pair<int, WindowInfo>> windows_;
  std::vector<RaceEvent> log_;
  // The last event, when it is a local access that the next may extend.
  bool last_local_ = false;
};

// The kind of access a communication call makes at its target: read, write, accumulate (or
// atomic, with its op), none for calls that access no target memory.
AccessMode access_mode(call::Kind k);

}  // namespace harness::races
