// call.hpp — one description of a call a script makes: an RMA call on a window, or a
// point-to-point call on the job. The Lua bindings parse their arguments into a Call, the
// implementation under test executes it (harness/impl/), and a benchmark replays a recorded
// list of them (impl/program.hpp) — so every call is named, described and executed once.
//
// The list below is the one home of the call names: Lua method names, recorded programs,
// state dumps and reports all spell a call as `to_string(kind)`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "rma/types.hpp"

namespace harness::impl {
class Window;
}

namespace harness::call {

// What a call is: communication (completes at a later synchronization), a request-based
// communication call (returns a request), synchronization (may block, may complete earlier
// calls), window memory management, or the job's point-to-point calls.
enum class Family : std::uint8_t { communication, request, synchronization, memory, job };

// Which earlier calls' buffers a synchronization call completes locally: none, those to
// `target`, or those to every target.
enum class Completes : std::uint8_t { none, target, all };

// X(name, family, completes) — MPI's names in snake_case, in the order of the MPI-3 chapter.
#define RMABENCH_CALLS(X)                               \
  X(put, communication, none)                           \
  X(get, communication, none)                           \
  X(accumulate, communication, none)                    \
  X(get_accumulate, communication, none)                \
  X(fetch_and_op, communication, none)                  \
  X(compare_and_swap, communication, none)              \
  X(rput, request, none)                                \
  X(rget, request, none)                                \
  X(raccumulate, request, none)                         \
  X(rget_accumulate, request, none)                     \
  X(fence, synchronization, all)                        \
  X(post, synchronization, none)                        \
  X(start, synchronization, none)                       \
  X(complete, synchronization, all)                     \
  X(wait, synchronization, none)                        \
  X(test, synchronization, none)                        \
  X(lock, synchronization, none)                        \
  X(unlock, synchronization, target)                    \
  X(lock_all, synchronization, none)                    \
  X(unlock_all, synchronization, all)                   \
  X(flush, synchronization, target)                     \
  X(flush_local, synchronization, target)               \
  X(flush_all, synchronization, all)                    \
  X(flush_local_all, synchronization, all)              \
  X(sync, synchronization, none)                        \
  X(attach, memory, none)                               \
  X(detach, memory, none)                               \
  X(free, memory, all)                                  \
  X(barrier, job, none)                                 \
  X(send, job, none)                                    \
  X(recv, job, none)

enum class Kind : std::uint8_t {
#define RMABENCH_CALL_ENUM(name, family, completes) name,
  RMABENCH_CALLS(RMABENCH_CALL_ENUM)
#undef RMABENCH_CALL_ENUM
};

inline constexpr int kind_count = 0
#define RMABENCH_CALL_COUNT(name, family, completes) +1
    RMABENCH_CALLS(RMABENCH_CALL_COUNT)
#undef RMABENCH_CALL_COUNT
    ;

std::string_view to_string(Kind k);
std::optional<Kind> parse_kind(std::string_view name);
Family family_of(Kind k);
Completes completes_of(Kind k);

// One call with its arguments. Buffers are borrowed: whoever builds a Call keeps them alive
// until the call is complete (the Lua bindings pin them; a recorded program owns them).
struct Call {
  Kind kind = Kind::barrier;
  impl::Window* win = nullptr;       // null for job calls
  const void* origin = nullptr;      // put/accumulate data, the operand of fetch_and_op and
                                     // compare_and_swap, a send's data, attach's base
  const void* compare = nullptr;     // compare_and_swap
  void* result = nullptr;            // get/get_accumulate/fetch results, a recv's buffer
  std::size_t count = 0;             // elements of `dtype`
  std::size_t bytes = 0;             // send/recv/attach: bytes
  rma::Dtype dtype = rma::Dtype::u8;
  rma::Op op = rma::Op::replace;
  rma::LockType lock_type = rma::LockType::exclusive;
  int target = 0;                    // target rank; the peer of send/recv
  int tag = 0;                       // send/recv
  std::uint64_t disp = 0;            // in the target window's disp_unit
  unsigned asserts = 0;              // rma::Assert bits
  std::vector<int> group;            // post/start
};

}  // namespace harness::call
