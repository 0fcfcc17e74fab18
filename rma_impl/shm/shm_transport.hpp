// shm_transport.hpp — the shared-memory transport: one segment per job holding, per rank, a
// doorbell and a receive queue every rank writes into (memory linear in the rank count).
//
// Rank 0 creates the segment and publishes its name through the bootstrap; every rank maps
// it; after a bootstrap fence the name is unlinked, so nothing outlives the job. Peers'
// window memory the shm backend maps can be handed to the transport (map_peer_ranges), which
// then copies large transfers through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

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

// A peer's window memory that this rank maps too: `size` bytes at `address` in the peer's
// process are `local` here.
struct PeerRange {
  int peer = 0;
  std::uint64_t address = 0;
  std::size_t size = 0;
  std::byte* local = nullptr;
};
// Tells the shm transport `t` about mapped peer memory (am windows, shm_backend.cpp): a
// single copy that lies wholly in one of these ranges is a memcpy through the mapping, not a
// system call. The ranges are forgotten when the returned token goes (the window is freed);
// null if `t` is not the shm transport.
std::shared_ptr<void> map_peer_ranges(progress::Transport& t, std::vector<PeerRange> ranges);

}  // namespace rma::shm
