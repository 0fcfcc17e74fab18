// shm_backend.hpp — the shm backend's entry points, what the registry takes from it: the
// transport (shm_transport.hpp), window support (memory every rank maps, for the direct path
// and for shared windows, and MPI_Alloc_mem segments that `create` windows can map), and the
// direct table (shm_win.hpp; shm_rma.cpp and shm_sync.cpp).
#pragma once

#include <memory>

#include "core/backend.hpp"
#include "core/window_ops.hpp"
#include "shm/shm_transport.hpp"

namespace rma::core {
class RuntimeImpl;
}

namespace rma::shm {

std::unique_ptr<core::Backend> make_backend(core::RuntimeImpl& rt);
// The direct table: am::am_ops() with the slots the shm direct path serves.
const core::WindowOps& direct_ops();

}  // namespace rma::shm
