// The backends compiled in: one line each.
#include "registry/backends.hpp"

#include "fabric/fabric_backend.hpp"
#include "shm/shm_backend.hpp"

namespace rma::registry {
namespace {

constexpr BackendEntry kBackends[] = {
    {"shm", shm::create_transport, shm::make_backend, shm::direct_ops},
    {"fabric", fabric::create_transport, fabric::make_backend, fabric::direct_ops},
};

}  // namespace

std::span<const BackendEntry> backends() {
  return kBackends;
}

const BackendEntry* find_backend(std::string_view name) {
  for (const BackendEntry& b : kBackends)
    if (b.name == name) return &b;
  return nullptr;
}

std::string backend_names() {
  std::string s;
  for (const BackendEntry& b : kBackends) s += (s.empty() ? "" : ", ") + std::string(b.name);
  return s;
}

}  // namespace rma::registry
