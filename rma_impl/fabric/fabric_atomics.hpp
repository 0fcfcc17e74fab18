// fabric_atomics.hpp — which of rmabench's (op, dtype) pairs a provider executes as native
// atomics, asked once per domain with fi_query_atomic, and the mapping to libfabric's enums.
//
//   AtomicTable t = query_atomics(domain);
//   if (std::size_t n = t.max_count(AtomicKind::fetch, Op::sum, Dtype::i64)) ... // n per call
#pragma once

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "rma/types.hpp"

namespace rma::fabric {

enum class AtomicKind { accumulate, fetch, compare };

// libfabric's operation for an rmabench op (no_op only as a fetch: FI_ATOMIC_READ).
std::optional<fi_op> to_fi_op(Op op, AtomicKind kind);
fi_datatype to_fi_datatype(Dtype t);

class AtomicTable {
 public:
  // Elements one native call may carry; 0 when the provider does not do it natively.
  std::size_t max_count(AtomicKind k, Op op, Dtype t) const {
    return counts_[static_cast<std::size_t>(k)][static_cast<std::size_t>(op)]
                  [static_cast<std::size_t>(t)];
  }
  void set(AtomicKind k, Op op, Dtype t, std::size_t n) {
    counts_[static_cast<std::size_t>(k)][static_cast<std::size_t>(op)]
           [static_cast<std::size_t>(t)] = n;
  }
  // Over the pairs MPI allows (op_valid_for; compare: integer types): how many are native,
  // of how many.
  std::pair<int, int> coverage(AtomicKind k) const;

 private:
  std::array<std::array<std::array<std::size_t, dtype_count>, op_count>, 3> counts_{};
};

// All zero for a domain without FI_ATOMIC (fi_query_atomic then fails). `provider` is the
// provider's name ("udp;ofi_rxd"): atomics a provider offers but mishandles are left out
// (atomics_quirk says which and why).
AtomicTable query_atomics(fid_domain* domain, std::string_view provider);
// Why some of `provider`'s atomics are not used natively, or "" when all are.
std::string_view atomics_quirk(std::string_view provider);

}  // namespace rma::fabric
