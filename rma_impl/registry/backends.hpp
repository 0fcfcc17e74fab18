// backends.hpp — the registry: the one list of the backends compiled in, each by its name and
// the three things the runtime takes from it (its transport, its window support, its direct
// table). It sits above core/, am/ and every backend and wires them together at
// Runtime::create; nothing below it names a backend.
//
// A new backend is a folder of new files plus one line in backends.cpp
// (docs/adding-a-backend.md says what to write, in order).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/backend.hpp"
#include "core/window_ops.hpp"
#include "progress/transport.hpp"
#include "rma/bootstrap.hpp"
#include "rma/runtime.hpp"

namespace rma::core {
class RuntimeImpl;
}

namespace rma::registry {

struct BackendEntry {
  std::string_view name;  // RuntimeConfig::backend, --backend, reports: spelled here once
  // Collective over the bootstrap's ranks.
  Result<std::unique_ptr<progress::Transport>> (*create_transport)(bootstrap::Bootstrap& boot,
                                                                   const RuntimeConfig& config);
  // Window support beyond packets (mapped memory); null for a backend with none.
  std::unique_ptr<core::Backend> (*make_backend)(core::RuntimeImpl& rt);
  // The direct table (am::am_ops() with the backend's slots); null for a backend with none.
  const core::WindowOps& (*direct_ops)();
};

std::span<const BackendEntry> backends();
const BackendEntry* find_backend(std::string_view name);
// "shm, fabric": for messages that list the choices.
std::string backend_names();

}  // namespace rma::registry
