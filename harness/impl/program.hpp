// program.hpp — one execution of a script's `run` hook, recorded as the calls it made, so that
// benchmarks replay it in C++ with no Lua in the timed loop.
//
// While recording, every call the hook makes is executed as usual and appended here (per
// rank: each rank records its own straight line; Lua branches on rma.rank are resolved by the
// recording). The program keeps the buffers alive. Lua-only work (expectations, logs,
// arithmetic) is not replayed, nor are calls whose repetition means something else:
// attach/detach/free (window memory) and win:test() (a poll the recording already answered).
//
//   Program p;  ctx.recorder = &p;  call run hook;  ctx.recorder = nullptr;
//   RMA_TRY(p.replay(impl, iterations));
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "call/call.hpp"
#include "impl/implementation.hpp"

namespace harness::impl {

class Program {
 public:
  // Whether a recording keeps calls of this kind.
  static bool replays(call::Kind k);

  void add(call::Call c, std::vector<std::shared_ptr<void>> keep = {});
  // Runs the calls `times` times, in order, through `impl`; an r* call waits for its request.
  // The first failure stops it.
  rma::Status replay(Implementation& impl, std::uint64_t times = 1) const;
  bool empty() const { return calls_.empty(); }
  std::size_t size() const { return calls_.size(); }
  // "lock, put, unlock" — what the program does, for reports and logs.
  std::string summary() const;

 private:
  std::vector<call::Call> calls_;
  std::vector<std::shared_ptr<void>> keep_;
  // calls_ bound by the implementation last replayed (Implementation::bind), made at its first
  // replay: a benchmark replays one program through one implementation thousands of times. A
  // call the implementation did not bind goes through execute() (run_unbound).
  void bind(Implementation& impl) const;
  mutable std::vector<Implementation::Bound> bound_;
  mutable const Implementation* bound_for_ = nullptr;
};

}  // namespace harness::impl
