// memory.hpp — window memory the runtime allocates itself, and MPI_Alloc_mem for memory that
// needs nothing special (no backend, or one whose direct path registers any memory).
#pragma once

#include <cstddef>
#include <map>
#include <memory>

#include "rma/status.hpp"

namespace rma::core {

// 64-byte aligned, zeroed memory owned by a shared_ptr (views may outlive the window);
// null when there is none.
std::shared_ptr<void> zeroed_memory(std::size_t bytes);

// MPI_Alloc_mem / MPI_Free_mem on zeroed_memory().
class AllocMem {
 public:
  Result<void*> alloc(std::size_t bytes);
  Status free(void* base);

 private:
  std::map<void*, std::shared_ptr<void>> blocks_;
};

}  // namespace rma::core
