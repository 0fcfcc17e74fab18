// window_info.hpp — the window info keys this implementation understands, parsed once per
// window (the runtime's defaults, then the window's own keys) into one typed struct that the
// generic layer, the am protocol and the backends read. Unknown keys are ignored, as MPI
// says; a known key with a bad value is an INFO error naming the key and the value.
//
// Adding a key: a field here and one line in window_info.cpp's key table.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "rma/status.hpp"
#include "rma/types.hpp"

namespace rma {
struct RuntimeConfig;
}

namespace rma::core {

struct WindowInfo {
  bool no_locks = false;                // no_locks: no passive target here (and no agent)
  bool ordered_accumulates = true;      // accumulate_ordering: false for "none"
  Path path = Path::am;                 // path, else the runtime's default_path
  Protocol protocol = Protocol::fewest;  // protocol, else the runtime's default_protocol
  // hold_budget: bytes of eager op data a target holds for one origin ahead of a lock grant
  // or a post; every rank must give the same value (the origins rely on it).
  std::size_t hold_budget = 64 * 1024;
  std::size_t region_size = 4096;       // region_size: bytes per striped lock (shm direct)
  bool alloc_shared_noncontig = false;  // alloc_shared_noncontig: per-rank pages (shared)
};

// `own` wins over the runtime's window_info; unset keys keep the defaults above.
Result<WindowInfo> parse_window_info(const RuntimeConfig& rc,
                                     const std::map<std::string, std::string>& own);

}  // namespace rma::core
