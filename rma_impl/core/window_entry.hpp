// window_entry.hpp — the prologue every public window call shares (window.cpp and
// window_layout.cpp): the call is tracked for state dumps and holds the engine's lock
// (released only while it waits), and error messages name the call the same way.
#pragma once

#include <string>

#include "core/runtime_impl.hpp"
#include "core/window_ops.hpp"

namespace rma::core {

// The prologue every call shares: the call is tracked for state dumps and holds the
// engine's lock (released only while it waits).
struct Entry {
  Win& w;
  progress::CallScope scope;
  progress::EngineLock lk;
  Call call;
  // Inlined by force: out of line (GCC 12 chose so once the entry poll's rule grew a branch)
  // it cost every call about 20 instructions more (callgrind, shm direct lock-put-unlock).
  [[gnu::always_inline]] Entry(Win& win, const char* name, int target, bool sync_call = true)
      : w(win),
        scope(win.rt.calls(), name, static_cast<int>(win.id), target),
        lk(win.engine.mutex(), std::defer_lock),
        call{win, lk, name} {
    const bool packets = !win.ops || win.ops->needs_engine_lock;
    const bool progress = win.engine.wants_call_progress(sync_call, packets);
    if (progress || packets) lk.lock();
    if (progress) win.engine.call_progress();
  }

  // Inlined by force too: GCC 12 left the destructor out of line in put (13 instructions).
  [[gnu::always_inline]] ~Entry() {}

  Status usable() const {
    if (w.freed) [[unlikely]]
      return freed_error(w, call.name);
    return Status::ok();
  }

 private:
  [[gnu::cold, gnu::noinline]] static Status freed_error(const Win& w, const char* call) {
    return {ErrorClass::win,
            std::string(call) + ": window " + std::to_string(w.id) + " has been freed"};
  }
};

inline std::string where(const Win& w, const char* call, int target) {
  std::string s = std::string(call) + ": window " + std::to_string(w.id);
  if (target >= 0) s += ", target " + std::to_string(target);
  return s;
}

}  // namespace rma::core
