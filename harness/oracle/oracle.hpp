// oracle.hpp — the harness's own answer to "what should this accumulate have produced?".
//
// Written independently of rma_impl's reduce kernels so that a case checks the
// implementation against something it did not compute itself. MPI's rules: the target
// element becomes op(target, origin); integers wrap modulo 2^bits; logical ops yield 0 or 1;
// replace takes the origin value; no_op keeps the target value.
#pragma once

#include <cstddef>

#include "rma/types.hpp"

namespace harness::oracle {

// target[i] = op(target[i], origin[i]) for `count` elements of `dtype` (unaligned is fine).
void apply(rma::Op op, rma::Dtype dtype, void* target, const void* origin, std::size_t count);

// The compare_and_swap rule: target takes `value` when it equals `compare`.
void compare_and_swap(rma::Dtype dtype, void* target, const void* compare, const void* value);

}  // namespace harness::oracle
