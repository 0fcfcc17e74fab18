// reduce.hpp — the reduce kernels: what the target side of accumulate, get_accumulate,
// fetch_and_op and compare_and_swap does to window memory, with MPI's semantics (integer
// sum/prod wrap modulo 2^bits, floats are IEEE, logical ops yield 1 or 0). Pointers may have
// any alignment, since displacements are arbitrary bytes; errors come back as a Status.
//
//   RMA_TRY(core::reduce(hdr.op, hdr.dtype, win_base + disp, payload.data(), count));
//   RMA_TRY(core::fetch_reduce(op, dtype, win_base + disp, origin, reply.data(), count));
#pragma once

#include <cstddef>

#include "rma/status.hpp"
#include "rma/types.hpp"

namespace rma::core {

// target[i] = op(target[i], origin[i]) for i in [0, count). origin may be null only for
// Op::no_op. Disjoint buffers (the protocol's case) take a vectorised path; overlapping ones
// are processed one element at a time in index order, each element's inputs read before its
// outputs are written.
// Errors: OP if op is not valid for dtype (rma::op_valid_for) or unknown; TYPE if dtype is
// unknown; BUFFER if a pointer the call needs is null while count > 0.
Status reduce(Op op, Dtype dtype, void* target, const void* origin, std::size_t count);

// result[i] = old target[i]; then target[i] = op(target[i], origin[i]): get_accumulate and
// fetch_and_op. result never overlaps target; it may overlap origin (a caller that reuses its
// buffer), with the rule for overlap given for reduce(). Errors as for reduce().
Status fetch_reduce(Op op, Dtype dtype, void* target, const void* origin, void* result,
                    std::size_t count);

// One element: result = old target; if old == compare, target = value. Integer types only
// (MPI's rule): TYPE for f32/f64 or an unknown dtype, BUFFER for a null pointer. result may
// alias compare or value.
Status compare_and_swap(Dtype dtype, void* target, const void* compare, const void* value,
                        void* result);

}  // namespace rma::core
