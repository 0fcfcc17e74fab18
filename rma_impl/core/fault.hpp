// fault.hpp — deliberate faults, for tests only: the environment variable RMA_FAULT names one
// way to break the implementation, so a test can prove the conformance suite notices.
//
//   put_short            a put writes one byte less than it was given (am and direct)
//   accumulate_wrong_op  accumulates apply the wrong op: sum as replace, others as sum
//   grant_ignores_table  the lock manager grants every request at once (am and direct)
//   no_singleton         the lock request never travels with a single op (counts change)
//   get_not_last         gets are not moved last (an extra message per lock epoch)
//   drop_ack             the target never sends acks (origins wait forever)
//   held_op_early        am fewest protocol: a target applies the ops an origin sends ahead
//                        of its lock grant at once, instead of holding them to the grant,
//                        and a fence op at arrival even if the target is not yet in its epoch
//
// Unset (the normal case), every check below is one load of a constant.
#pragma once

#include <string_view>

#include "rma/types.hpp"

namespace rma::core {

enum class Fault {
  none,
  put_short,
  accumulate_wrong_op,
  grant_ignores_table,
  no_singleton,
  get_not_last,
  drop_ack,
  held_op_early
};

// The fault RMA_FAULT names; an unknown name is `none` and says so on stderr.
Fault read_fault();
// Read once per process; inline, since the hot paths ask at every op.
inline Fault active_fault() {
  static const Fault f = read_fault();
  return f;
}
inline bool fault(Fault f) {
  return active_fault() == f;
}
std::string_view to_string(Fault f);

// The op a target applies: `op`, unless RMA_FAULT=accumulate_wrong_op (then sum is applied
// as replace and every other op but no_op as sum). Shared by every path that applies ops.
inline Op faulty(Op op) {
  if (!fault(Fault::accumulate_wrong_op) || op == Op::no_op) return op;
  return op == Op::sum ? Op::replace : Op::sum;
}

}  // namespace rma::core
