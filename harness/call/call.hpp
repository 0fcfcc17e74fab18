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

#include "rma/datatype.hpp"
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

// What each argument of a call is, in the order a script passes them (the Lua bindings parse
// them by role, harness/lua/lua_call.cpp): which field of a Call it fills and how it is read.
enum class Arg : std::uint8_t {
  origin,            // a buffer that goes out: origin, count, dtype, bytes
  origin_or_nil,     // the same, or nil (get_accumulate with no_op)
  result,            // a buffer that receives: result, count, dtype, bytes
  result_or_return,  // a buffer for the old value; without one the call completes at once
                     // (an implicit flush_local, inside lock or lock_all) and returns it
  value,             // one element of `dtype` (may be nil with no_op): origin
  compare,           // one element of `dtype`: compare
  dtype,             // a dtype name
  target,            // a rank: the target, or the peer of send/recv
  disp,              // a displacement >= 0, default 0
  op,                // an op name
  lock_type,         // "exclusive" (default) or "shared"
  asserts,           // a string or a list of strings, default none
  group,             // a list of ranks
  tag,               // 0..2^30, default 0
  memory,            // a buffer attached or detached: origin, bytes
  layout,            // a trailing table of each side's (count, type), default none:
                     // origin_layout, target_layout, result_layout
};

// The roles of a call's arguments, in order.
struct Args {
  static constexpr int max = 6;
  Arg list[max]{};
  int count = 0;
  constexpr Args() = default;
  template <class... A>
  constexpr explicit Args(A... a) : list{a...}, count(static_cast<int>(sizeof...(A))) {}
  constexpr bool has(Arg a) const {
    for (int i = 0; i < count; ++i)
      if (list[i] == a) return true;
    return false;
  }
};

// X(name, family, completes, (argument roles)) — MPI's names in snake_case, in the order of the
// MPI-3 chapter. Adding a call is a line here plus its execution in each implementation.
#define RMABENCH_CALLS(X)                                                                   \
  X(put, communication, none, (origin, target, disp, layout))                               \
  X(get, communication, none, (result, target, disp, layout))                               \
  X(accumulate, communication, none, (origin, target, disp, op, layout))                    \
  X(get_accumulate, communication, none, (origin_or_nil, result, target, disp, op, layout)) \
  X(fetch_and_op, communication, none, (value, target, disp, op, dtype, result_or_return))  \
  X(compare_and_swap, communication, none,                                                  \
    (compare, value, target, disp, dtype, result_or_return))                                \
  X(rput, request, none, (origin, target, disp, layout))                                    \
  X(rget, request, none, (result, target, disp, layout))                                    \
  X(raccumulate, request, none, (origin, target, disp, op, layout))                         \
  X(rget_accumulate, request, none, (origin_or_nil, result, target, disp, op, layout))      \
  X(fence, synchronization, all, (asserts))                                                 \
  X(post, synchronization, none, (group, asserts))                                          \
  X(start, synchronization, none, (group, asserts))                                         \
  X(complete, synchronization, all, ())                                                     \
  X(wait, synchronization, none, ())                                                        \
  X(test, synchronization, none, ())                                                        \
  X(lock, synchronization, none, (target, lock_type, asserts))                              \
  X(unlock, synchronization, target, (target))                                              \
  X(lock_all, synchronization, none, (asserts))                                             \
  X(unlock_all, synchronization, all, ())                                                   \
  X(flush, synchronization, target, (target))                                               \
  X(flush_local, synchronization, target, (target))                                         \
  X(flush_all, synchronization, all, ())                                                    \
  X(flush_local_all, synchronization, all, ())                                              \
  X(sync, synchronization, none, ())                                                        \
  X(attach, memory, none, (memory))                                                         \
  X(detach, memory, none, (memory))                                                         \
  X(free, memory, all, ())                                                                  \
  X(barrier, job, none, ())                                                                 \
  X(send, job, none, (target, origin, tag))                                                 \
  X(recv, job, none, (target, result, tag))

enum class Kind : std::uint8_t {
#define RMABENCH_CALL_ENUM(name, family, completes, args) name,
  RMABENCH_CALLS(RMABENCH_CALL_ENUM)
#undef RMABENCH_CALL_ENUM
};

inline constexpr int kind_count = 0
#define RMABENCH_CALL_COUNT(name, family, completes, args) +1
    RMABENCH_CALLS(RMABENCH_CALL_COUNT)
#undef RMABENCH_CALL_COUNT
    ;

// One entry of the list, for code that needs it at compile time (the Lua bindings).
struct Description {
  std::string_view name;
  Family family;
  Completes completes;
  Args args;
};

namespace detail {
using enum Arg;
inline constexpr Description descriptions[] = {
#define RMABENCH_CALL_DESCRIPTION(name, family, completes, args) \
  Description{#name, Family::family, Completes::completes, Args args},
    RMABENCH_CALLS(RMABENCH_CALL_DESCRIPTION)
#undef RMABENCH_CALL_DESCRIPTION
};
}  // namespace detail

constexpr const Description& describe(Kind k) {
  return detail::descriptions[static_cast<int>(k)];
}

std::string_view to_string(Kind k);
std::optional<Kind> parse_kind(std::string_view name);
Family family_of(Kind k);
Completes completes_of(Kind k);
// Whether the call may wait for other ranks (the synchronization calls but test, free, and
// the job's calls): the bindings note the script position for state dumps around it.
constexpr bool may_block(Kind k) {
  const Family f = describe(k).family;
  return (f == Family::synchronization && k != Kind::test) || f == Family::job || k == Kind::free;
}

// One call with its arguments. Buffers are borrowed: whoever builds a Call keeps them alive
// until the call is complete (the Lua bindings pin them; a recorded program owns them).
struct Call {
  Kind kind = Kind::barrier;
  impl::Window* win = nullptr;    // null for job calls
  const void* origin = nullptr;   // put/accumulate data, the operand of fetch_and_op and
                                  // compare_and_swap, a send's data, attach's base
  const void* compare = nullptr;  // compare_and_swap
  void* result = nullptr;         // get/get_accumulate/fetch results, a recv's buffer
  std::size_t count = 0;          // elements of `dtype`
  std::size_t bytes = 0;          // send/recv/attach: bytes
  rma::Dtype dtype = rma::Dtype::u8;
  rma::Op op = rma::Op::replace;
  rma::LockType lock_type = rma::LockType::exclusive;
  int target = 0;          // target rank; the peer of send/recv
  int tag = 0;             // send/recv
  std::uint64_t disp = 0;  // in the target window's disp_unit
  unsigned asserts = 0;    // rma::Assert bits
  std::vector<int> group;  // post/start
  // Derived datatypes (Arg::layout): each side's (count, type), all three set or none. The
  // origin side is the local data buffer (a get's too, as MPI names it); the result side
  // get_accumulate's result buffer; the target side is relative to disp.
  rma::Layout origin_layout, target_layout, result_layout;
  bool has_layout() const { return target_layout.type != nullptr; }
};

// --trace: puts a finished call on this rank's timeline (rma/trace.hpp) with its target
// (-1 when it has none) and the bytes it moves.
void trace(const Call& c, int rank, std::int64_t t0, std::int64_t t1);

}  // namespace harness::call
