// window_info.hpp — the window info keys this implementation understands, parsed once per
// window (the runtime's defaults, then the window's own keys) into one typed struct that the
// generic layer, the am protocol and the backends read. Unknown keys are ignored, as MPI
// says; a known key with a bad value is an INFO error naming the key and the value.
//
// Adding a key: a field here and one line in window_info.cpp's key table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "rma/status.hpp"
#include "rma/types.hpp"

namespace rma {
struct RuntimeConfig;
}

namespace rma::core {

// How a closing fence tells every rank how many origins it waits for, under the fewest
// protocol (docs/protocol.md, "Fence"): `messages` gathers the counts at rank 0 and scatters
// the totals, 2(n-1) messages in two rounds, each riding on an op where one goes that way;
// `rounds` has every rank tell every other directly, n(n-1) messages in one round, the op
// marks included. `auto` takes the one with fewer messages, and on a tie (n <= 2) the one
// with fewer rounds. ch3 always exchanges by recursive halving, ahead of the ops.
enum class FenceExchange : std::uint8_t { auto_, messages, rounds };

struct WindowInfo {
  bool no_locks = false;                 // no_locks: no passive target here (and no agent)
  bool ordered_accumulates = true;       // accumulate_ordering: false for "none"
  Path path = Path::am;                  // path, else the runtime's default_path
  Protocol protocol = Protocol::fewest;  // protocol, else the runtime's default_protocol
  // hold_budget: bytes of eager op data a target holds for one origin ahead of a lock grant
  // or a post; every rank must give the same value (the origins rely on it).
  std::size_t hold_budget = 64 * 1024;
  FenceExchange fence_exchange = FenceExchange::auto_;  // fence_exchange: auto|messages|rounds
  std::size_t region_size = 4096;       // region_size: bytes per striped lock (shm direct)
  bool alloc_shared_noncontig = false;  // alloc_shared_noncontig: per-rank pages (shared)
};

// `own` wins over the runtime's window_info; unset keys keep the defaults above.
Result<WindowInfo> parse_window_info(const RuntimeConfig& rc,
                                     const std::map<std::string, std::string>& own);

}  // namespace rma::core
