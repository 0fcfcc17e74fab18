// op_program.hpp — one execution of a script's `run` hook, recorded as the RMA calls it made,
// so that benchmarks replay it in C++ with no Lua in the timed loop.
//
// While recording, every window method and every rma.barrier/send/recv the hook calls is
// executed as usual and appended here (per rank: each rank records its own straight line;
// Lua branches on rma.rank are resolved by the recording). Buffers are kept alive by the
// program. Lua-only work (expectations, logs, arithmetic) is not replayed.
//
//   OpProgram p;  ctx.recorder = &p;  call run hook;  ctx.recorder = nullptr;
//   for (...) RMA_TRY(p.replay(rt));
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rma/runtime.hpp"
#include "rma/window.hpp"

namespace harness::bench {

struct RecordedCall {
  enum class Kind : std::uint8_t {
    put, get, accumulate, get_accumulate, fetch_and_op, compare_and_swap,
    rput, rget, raccumulate, rget_accumulate,
    fence, post, start, complete, wait, lock, unlock, lock_all, unlock_all,
    flush, flush_local, flush_all, flush_local_all, sync,
    barrier, send, recv,
  };
  Kind kind;
  rma::Window* win = nullptr;
  const void* origin = nullptr;
  const void* compare = nullptr;
  void* result = nullptr;
  std::size_t count = 0;
  std::size_t bytes = 0;  // send/recv
  rma::Dtype dtype = rma::Dtype::u8;
  rma::Op op = rma::Op::replace;
  rma::LockType lock_type = rma::LockType::exclusive;
  int target = 0;         // also peer for send/recv, tag in `tag`
  int tag = 0;
  std::uint64_t disp = 0;
  unsigned asserts = 0;
  std::vector<int> group;
};

class OpProgram {
 public:
  void add(RecordedCall c, std::vector<std::shared_ptr<void>> keep = {});
  // Runs the calls once, in order; the first failure stops it.
  rma::Status replay(rma::Runtime& rt) const;
  bool empty() const { return calls_.empty(); }
  std::size_t size() const { return calls_.size(); }
  // "lock, put, unlock" — what the program does, for reports and logs.
  std::string summary() const;

 private:
  std::vector<RecordedCall> calls_;
  std::vector<std::shared_ptr<void>> keep_;
};

std::string_view to_string(RecordedCall::Kind k);

}  // namespace harness::bench
