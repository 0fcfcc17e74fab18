// backend.hpp — what a backend adds to windows beyond its transport: memory every rank can
// map, for its direct table of operations (MPICH's ADI override of the RMA function table)
// and for shared windows.
//
// Window creation (core) parses the window's info, asks each rank whether its memory can be
// mapped by all, agrees on a path collectively, lets the backend set up the memory and its
// per-window state, and then installs the table itself. The core never depends on a backend;
// a backend depends on the core (and on am/, whose table its direct table starts from). The
// registry (registry/) names the backends and hands the core each one's direct table.
#pragma once

#include "core/win.hpp"
#include "core/window_info.hpp"
#include "rma/window.hpp"

namespace rma::core {

class Backend {
 public:
  virtual ~Backend() = default;
  // Local: can this rank's memory for the window be mapped by every rank?
  virtual bool can_map(const WindowConfig& cfg, const WindowInfo& info) const = 0;
  // Collective: gives the window memory every rank maps (w.base, w.size, w.memory, the
  // peers' memory in w.backend) for the direct path, for a shared window, or for an am
  // window where every rank's maps_am_window() says so. The table and the path are the
  // core's business, not the backend's. Memory is in place (w.base) before the last barrier
  // of the exchange: a peer that leaves it first may send an am op at once.
  virtual Status map_window(Call& c, const WindowConfig& cfg, const WindowInfo& info,
                            bool direct) = 0;
  // Local: should this rank's memory for an am window that every rank can map be mapped all
  // the same? The backend's transport then moves large transfers through the mapping. The
  // window is mapped only where every rank says yes.
  virtual bool maps_am_window(const WindowConfig& cfg) const {
    (void)cfg;
    return false;
  }
  // MPI_Alloc_mem: memory a `create` window can map on the direct path.
  virtual Result<void*> alloc_mem(std::size_t bytes) = 0;
  virtual Status free_mem(void* base) = 0;
};

}  // namespace rma::core
