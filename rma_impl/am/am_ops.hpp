// am_ops.hpp — the am protocol as the rest of the implementation uses it: its table of
// operations (every slot on packets, so it works on every transport) and the Protocol the
// registry hands to each runtime. A backend's direct table starts as a copy of am_ops(), and
// a direct slot that cannot serve a call passes it to the am slot of the same name.
#pragma once

#include "core/window_ops.hpp"

namespace rma::am {

const core::WindowOps& am_ops();
const core::Protocol& protocol();

}  // namespace rma::am
