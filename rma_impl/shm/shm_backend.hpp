// shm_backend.hpp — the shm backend's window support: memory every rank maps (for the direct
// path and for shared windows) and MPI_Alloc_mem segments that `create` windows can map.
#pragma once

#include <memory>

#include "core/backend.hpp"

namespace rma::core {
class RuntimeImpl;
}

namespace rma::shm {

std::unique_ptr<core::Backend> make_backend(core::RuntimeImpl& rt);

}  // namespace rma::shm
