// recorder.hpp — what `--check races` records on one rank: every remote access a script
// issues, every load and store through window memory, and every synchronization call, in
// program order. The checker (checker.hpp) reads all ranks' logs after the case.
//
// The Lua bindings feed it (harness/lua/); it knows nothing of Lua. A rank has at most one
// active recorder (Recorder::active()), so the buffer methods cost a null check when the
// checker is off. Consecutive element accesses of one line to adjacent bytes are merged into
// one range, so a loop over a buffer is one event.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "call/call.hpp"

namespace harness::races {

// Window memory this rank can load and store: its own, or a peer's through shared_query.
struct Region {
  const std::byte* lo = nullptr;
  const std::byte* hi = nullptr;
  int win = -1;
  int owner = -1;           // whose window memory it is
  std::uint64_t first = 0;  // byte offset in the window (dynamic: the address) of `lo`
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

  // A call that succeeded (for `test`: only one that returned true). `win` is the window's
  // id, -1 for job calls.
  void call(const call::Call& c, int win, std::string where);
  // The harness's own barriers between hooks.
  void barrier(std::string where);

  nlohmann::json to_json() const;
  std::size_t events() const { return log_.size(); }

 private:
  struct WindowInfo {
    int disp_unit = 1;
    bool dynamic = false;
  };
  int rank_;
  std::vector<Region> regions_;
  std::vector<std::pair<int, WindowInfo>> windows_;
  nlohmann::json log_ = nlohmann::json::array();
  // The last event, when it is a local access that the next may extend.
  bool last_local_ = false;
};

// The kind of access a communication call makes at its target: 'r' read, 'w' write, 'a'
// accumulate or atomic (with its op), 0 for calls that access no target memory.
char access_mode(call::Kind k);

}  // namespace harness::races
