// Runtime creation: the backend the config names, from the registry, over the am protocol;
// and what each compiled backend serves on its direct path, read from its table.
#include "am/am_ops.hpp"
#include "core/runtime_impl.hpp"
#include "registry/backends.hpp"
#include "rma/runtime.hpp"

namespace rma {
namespace {

constexpr std::size_t kMaxEagerLimit = 64 * 1024;

}  // namespace

std::vector<BackendInfo> compiled_backends() {
  std::vector<BackendInfo> out;
  for (const registry::BackendEntry& b : registry::backends()) {
    BackendInfo info{std::string(b.name), {}};
    if (b.direct_ops) info.direct_ops = core::overridden_slots(b.direct_ops(), am::am_ops());
    out.push_back(std::move(info));
  }
  return out;
}

Result<std::unique_ptr<Runtime>> Runtime::create(const RuntimeConfig& config,
                                                 bootstrap::Bootstrap& boot) {
  if (config.eager_limit == 0 || config.eager_limit > kMaxEagerLimit)
    return Status{ErrorClass::arg, "eager limit " + std::to_string(config.eager_limit) +
                                       " is outside 1.." + std::to_string(kMaxEagerLimit)};
  if (boot.size() < 1 || boot.rank() < 0 || boot.rank() >= boot.size())
    return Status{ErrorClass::arg, "bootstrap reports rank " + std::to_string(boot.rank()) +
                                       " of " + std::to_string(boot.size())};
  const registry::BackendEntry* entry = registry::find_backend(config.backend);
  if (!entry)
    return Status{ErrorClass::arg,
                  "unknown backend '" + config.backend + "' (" + registry::backend_names() + ")"};
  auto transport = entry->create_transport(boot, config);
  if (!transport) return transport.status();
  auto impl =
      std::make_unique<core::RuntimeImpl>(config, std::move(transport.value()), am::protocol());
  if (entry->make_backend)
    impl->set_backend(entry->make_backend(*impl),
                      entry->direct_ops ? &entry->direct_ops() : nullptr);
  return std::unique_ptr<Runtime>(new Runtime(std::move(impl)));
}

}  // namespace rma
