// shm_copy.hpp — the direct path's copies into and out of a peer's mapped memory, at the
// speed of the fastest memcpy the C library has for the size.
//
// Why not one memcpy: glibc 2.36 on AMD copies with `rep movsb` only below the L2 size per
// core (its rep_movsb_stop_threshold, 1 MiB here) and switches to a vector loop of ordinary
// stores above it, up to its non-temporal threshold (hundreds of MiB). On this machine that
// loop is 15-20% slower than `rep movsb` for 1-32 MiB (docs/performance.md), and Open MPI's
// osc/sm, which copies in 128 KiB blocks, gets the faster method for every block. Copying in
// blocks below the L2 size does the same here and costs nothing elsewhere (a few calls per
// MiB). Non-temporal stores lost here from 1 to 16 MiB and won only around 128 MiB, far
// beyond the L3 size: not used.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace rma::shm {

inline constexpr std::size_t kCopyBlock = 256 * 1024;

inline void copy_bytes(void* dst, const void* src, std::size_t n) {
  if (n <= kCopyBlock) {
    std::memcpy(dst, src, n);
    return;
  }
  auto* d = static_cast<std::byte*>(dst);
  const auto* s = static_cast<const std::byte*>(src);
  while (n) {
    const std::size_t k = std::min(n, kCopyBlock);
    std::memcpy(d, s, k);
    d += k;
    s += k;
    n -= k;
  }
}

}  // namespace rma::shm
