// fabric_backend.hpp — the fabric backend's window support: registered memory and the direct
// table (fabric_window.hpp) for allocate and create windows, and the routing of the direct
// path's control messages to their window. Shared and dynamic windows have no direct path
// here (ranks may be on different hosts; attach would need a registration per region).
//
//   impl->set_backend(rma::fabric::make_backend(*impl));   // backend "fabric" only
#pragma once

#include <memory>

#include "core/backend.hpp"

namespace rma::core {
class RuntimeImpl;
}

namespace rma::fabric {

// The runtime's transport must be the fabric transport.
std::unique_ptr<core::Backend> make_backend(core::RuntimeImpl& rt);

}  // namespace rma::fabric
