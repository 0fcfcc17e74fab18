// shm_transport.hpp — the shared-memory transport: one segment per job holding a doorbell per
// rank and a ring per ordered pair of ranks.
//
// Rank 0 creates the segment and publishes its name through the bootstrap; every rank maps
// it; after a bootstrap fence the name is unlinked, so nothing outlives the job.
#pragma once

#include <memory>

#include "progress/transport.hpp"
#include "rma/bootstrap.hpp"
#include "rma/runtime.hpp"

namespace rma::shm {

Result<std::unique_ptr<progress::Transport>> create_transport(bootstrap::Bootstrap& boot,
                                                              const RuntimeConfig& config);

// Ring size per ordered pair for a job of `ranks` ranks: large rings for few ranks, smaller
// ones when there are many pairs, so the segment stays modest.
std::size_t ring_bytes_for(int ranks);

}  // namespace rma::shm
