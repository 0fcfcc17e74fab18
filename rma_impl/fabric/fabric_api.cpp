#include "fabric/fabric_api.hpp"

#include <dlfcn.h>
#include <stdlib.h>

#include <mutex>

namespace rma::fabric {
namespace {

template <class F>
bool resolve(void* lib, const char* name, F& out) {
  out = reinterpret_cast<F>(::dlsym(lib, name));
  return out != nullptr;
}

}  // namespace

Result<const Api*> api() {
  static std::once_flag once;
  static Api table{};
  static std::string error;
  std::call_once(once, [] {
    // ofi_rxm pre-posts 128 buffers of 16 KiB per connection by default and zeroes its pools
    // when the endpoint opens (0.2-0.4 s on a 2-core VM, per rank process). The transport
    // does its own flow control with a few dozen messages in flight per peer, so 32 are
    // plenty. A value the user set wins.
    ::setenv("FI_OFI_RXM_MSG_RX_SIZE", "32", 0);
    void* lib = ::dlopen("libfabric.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      error = std::string("cannot load libfabric: ") + ::dlerror();
      return;
    }
    if (!resolve(lib, "fi_getinfo", table.getinfo) ||
        !resolve(lib, "fi_freeinfo", table.freeinfo) ||
        !resolve(lib, "fi_dupinfo", table.dupinfo) || !resolve(lib, "fi_fabric", table.fabric) ||
        !resolve(lib, "fi_strerror", table.strerror) || !resolve(lib, "fi_tostr", table.tostr))
      error = std::string("libfabric lacks an entry point: ") + ::dlerror();
  });
  if (!error.empty()) return Status{ErrorClass::unsupported, error};
  return &table;
}

std::string error_text(const char* call, int rc) {
  auto a = api();
  const char* text = a ? (*a)->strerror(-rc) : "libfabric not loaded";
  return std::string(call) + ": " + text + " (" + std::to_string(rc) + ")";
}

}  // namespace rma::fabric
