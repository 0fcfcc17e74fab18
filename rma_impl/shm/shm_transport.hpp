// shm_transport.hpp — the shared-memory transport: one segment per job holding, per rank, a
// doorbell and a receive queue every rank writes into (memory linear in the rank count).
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

// Receive queue size per rank for a job of `ranks` ranks: larger for few ranks (room for
// several full-size packets from each peer), smaller when there are many.
std::size_t queue_bytes_for(int ranks);
// Largest packet payload for a job of `ranks` ranks.
std::size_t max_payload_for(int ranks);

}  // namespace rma::shm
