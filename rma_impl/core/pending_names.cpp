// The recorded names live in fixed slots, each a state word and the name's /dev/shm path: a
// signal handler reads them without allocating or locking, and a slot being written is one
// it skips (its segment is still being created, or its name is being removed). Adding and
// removing take a mutex: ranks that are threads of one process (the tests' jobs) create and
// unlink segments at the same time, and a slot's path is read and written only under it
// (the handler, in a process that is dying, reads a path only while its slot is set).
#include "rma/pending_names.hpp"

#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>

namespace rma {
namespace {

constexpr char kDir[] = "/dev/shm";
constexpr std::size_t kPathMax = 160;

struct Slot {
  enum : int { free_, busy, set };
  std::atomic<int> state{free_};
  char path[kPathMax] = {};
};
// A rank holds its alloc_mem segments' names until it frees them (peers may map them in any
// later window), so a script may have dozens at once.
Slot slots[256];
std::mutex slots_mutex;  // add and remove; never the handler

bool holds(const Slot& s, std::string_view name) {
  return std::strncmp(s.path, kDir, sizeof kDir - 1) == 0 &&
         std::string_view(s.path + sizeof kDir - 1) == name;
}

}  // namespace

void add_pending_name(std::string_view name) {
  if (name.size() + sizeof kDir > kPathMax) return;
  std::lock_guard lock(slots_mutex);
  for (Slot& s : slots) {
    if (s.state.load(std::memory_order_relaxed) != Slot::free_) continue;
    s.state.store(Slot::busy, std::memory_order_relaxed);
    std::memcpy(s.path, kDir, sizeof kDir - 1);
    std::memcpy(s.path + sizeof kDir - 1, name.data(), name.size());
    s.path[sizeof kDir - 1 + name.size()] = '\0';
    s.state.store(Slot::set, std::memory_order_release);
    return;
  }
}

void remove_pending_name(std::string_view name) {
  std::lock_guard lock(slots_mutex);
  for (Slot& s : slots) {
    if (s.state.load(std::memory_order_relaxed) != Slot::set || !holds(s, name)) continue;
    s.state.store(Slot::free_, std::memory_order_release);
    return;
  }
}

void unlink_pending_names() noexcept {
  for (Slot& s : slots)
    if (s.state.load(std::memory_order_acquire) == Slot::set) ::unlink(s.path);
}

}  // namespace rma
