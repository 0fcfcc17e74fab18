// ref_implementation.hpp — the reference implementation (rma_impl) as the implementation
// under test: one rank's rma::Runtime, its windows, and every call of call/call.hpp mapped to
// the rma::Window method or runtime call of the same name.
#pragma once

#include <memory>

#include "impl/implementation.hpp"
#include "rma/bootstrap.hpp"
#include "rma/runtime.hpp"

namespace harness::impl {

// Creates the rank's runtime (collective over the bootstrap's ranks).
rma::Result<std::unique_ptr<Implementation>> make_reference(const rma::RuntimeConfig& config,
                                                            rma::bootstrap::Bootstrap& boot);

}  // namespace harness::impl
