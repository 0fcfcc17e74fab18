// backend.hpp — what a backend adds to windows beyond its transport: memory every rank can
// map, and a direct table of operations (MPICH's ADI override of the RMA function table).
//
// Window creation (core) asks each rank whether its memory can be mapped by all, agrees on a
// path collectively, then lets the backend set up the memory and its per-window state. The
// core never depends on a backend; a backend depends on the core.
#pragma once

#include <string>
#include <vector>

#include "core/win.hpp"
#include "rma/window.hpp"

namespace rma::core {

struct WindowOps;

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // The direct table — am_ops() with the backend's slots — or null if it has none.
  virtual const WindowOps* direct_ops() const = 0;
  // The slots the backend declares it serves on the direct path; a startup check and a unit
  // test compare them with the table's overridden slots.
  virtual std::vector<std::string> declared_slots() const = 0;
  // Local: can this rank's memory for the window be mapped by every rank?
  virtual bool can_map(const WindowConfig& cfg) const = 0;
  // Collective: gives the window memory every rank maps (w.base, w.size, w.memory, the
  // peers' memory in w.backend) for the direct path or for a shared window.
  virtual Status map_window(Call& c, const WindowConfig& cfg, bool direct) = 0;
  // MPI_Alloc_mem: memory a `create` window can map on the direct path.
  virtual Result<void*> alloc_mem(std::size_t bytes) = 0;
  virtual Status free_mem(void* base) = 0;
};

}  // namespace rma::core
