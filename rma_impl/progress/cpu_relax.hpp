// cpu_relax.hpp — the pause every spin loop of the implementation takes between two looks:
// it tells the core (and a hypervisor) that the thread is waiting, not working.
#pragma once

#include <atomic>

namespace rma::progress {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::atomic_signal_fence(std::memory_order_seq_cst);
#endif
}

}  // namespace rma::progress
