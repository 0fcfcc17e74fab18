#include "core/memory.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

namespace rma::core {

std::shared_ptr<void> zeroed_memory(std::size_t bytes) {
  const std::size_t n = ((bytes ? bytes : 1) + 63) & ~std::size_t{63};
  void* p = std::aligned_alloc(64, n);
  if (!p) return nullptr;
  std::memset(p, 0, n);
  return std::shared_ptr<void>(p, std::free);
}

Result<void*> AllocMem::alloc(std::size_t bytes) {
  auto mem = zeroed_memory(bytes);
  if (!mem)
    return Status{ErrorClass::other,
                  "alloc_mem: cannot allocate " + std::to_string(bytes) + " bytes"};
  void* p = mem.get();
  blocks_[p] = std::move(mem);
  return p;
}

Status AllocMem::free(void* base) {
  if (!blocks_.erase(base)) return {ErrorClass::arg, "free_mem: not memory from alloc_mem"};
  return Status::ok();
}

}  // namespace rma::core
