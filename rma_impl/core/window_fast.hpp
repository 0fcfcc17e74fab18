// window_fast.hpp — the generic layer's fast path for a small contiguous put or get to a
// target whose lock this rank holds, on a table whose slots would only copy to or from that
// target's mapped memory (WindowOps::copies_mapped: the shm direct path).
//
// Why: such an op is a memcpy of a few bytes, and the full call around it (the entry's call
// tracking, the op record, the argument and epoch checks, the table's slot) ran about 270
// instructions for an 8-byte put. Here the checks an op in that state needs are a handful of
// compares against what lock() recorded; anything else (another epoch, an error to name, a
// poll the progress rule asks for, a larger op) returns null and the call takes the full
// path, which alone says what was wrong. Skipped on this path: the call's entry in state
// dumps (the op cannot block, so no dump waits on it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/element_copy.hpp"
#include "core/win.hpp"
#include "progress/engine.hpp"

namespace rma::core {

// Above this the copy costs hundreds of times the checks, and the op takes the full path.
inline constexpr std::size_t kFastOpBytes = 64 * 1024;

// The target address of `count` elements of `dtype` at `disp` (in the target's displacement
// units), their size in `bytes`; or null when the op must take the full path. Inlined into
// put and get.
[[gnu::always_inline]] inline std::byte* fast_address(Win& w, int target, std::uint64_t disp,
                                                      std::size_t count, Dtype dtype,
                                                      std::size_t& bytes) {
  // Unsigned: proc_null and every other negative target fall out here too.
  if (static_cast<std::size_t>(target) >= w.peers.size()) return nullptr;
  const PeerWin& p = w.peers[static_cast<std::size_t>(target)];
  // A freed window has no lock epoch (free needs none open), so never passes the second test.
  if (!p.mapped || w.epochs.access() != Access::lock || !w.epochs.locked(target)) return nullptr;
  std::uint64_t offset = 0;
  if (__builtin_mul_overflow(count, size_of(dtype), &bytes) || bytes == 0 || bytes > kFastOpBytes ||
      !p.holds(disp, bytes, offset))
    return nullptr;
  // A call that must poll on entry (progress by calls) takes the full path, which polls.
  if (w.engine.wants_call_progress(false, false)) return nullptr;
  return p.mapped + offset;
}

// A put (`origin` to the target) or a get (the target to `result`) done here, counted as the
// table's slot counts it; false when the op must take the full path. `kind` is a constant at
// each call, so the other direction folds away.
[[gnu::always_inline]] inline bool fast_copy(Win& w, DirectOp kind, const void* origin,
                                             void* result, int target, std::uint64_t disp,
                                             std::size_t count, Dtype dtype) {
  if (has_padding(dtype)) return false;  // the table's slot copies data only
  std::size_t bytes = 0;
  std::byte* at = fast_address(w, target, disp, count, dtype, bytes);
  if (!at || !(kind == DirectOp::put ? origin : result)) return false;
  if (kind == DirectOp::put)
    std::memcpy(at, origin, bytes);
  else
    std::memcpy(result, at, bytes);
  w.engine.count_direct(w.id, kind);
  return true;
}

// Records where the table lets the generic layer copy for it: each peer's mapped memory, from
// the backend. Not under a deliberate fault (fault.hpp), which the table's own slots inject.
void map_fast_targets(Win& w);

}  // namespace rma::core
