// fabric_backend.hpp — the fabric backend's entry points, what the registry takes from it:
// the transport (fabric_transport.hpp), window support (registered memory for allocate and
// create windows, and the routing of the direct path's control messages to their window),
// and the direct table (fabric_win.hpp; fabric_rma.cpp and fabric_sync.cpp). Shared and dynamic
// windows have no direct path here (ranks may be on different hosts; attach would need a
// registration per region).
#pragma once

#include <memory>

#include "core/backend.hpp"
#include "core/window_ops.hpp"
#include "fabric/fabric_transport.hpp"

namespace rma::core {
class RuntimeImpl;
}

namespace rma::fabric {

// The runtime's transport must be the fabric transport.
std::unique_ptr<core::Backend> make_backend(core::RuntimeImpl& rt);
// The direct table: am::am_ops() with the slots the fabric direct path serves.
const core::WindowOps& direct_ops();

}  // namespace rma::fabric
