// The recorded names live in fixed slots, each a state word and the name's /dev/shm path: a
// signal handler reads them without allocating or locking, and a slot being written is one
// it skips (its segment is still being created, or its name is being removed).
#include "rma/pending_names.hpp"

#include <unistd.h>

#include <atomic>
#include <cstring>

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

bool holds(const Slot& s, std::string_view name) {
  return std::strncmp(s.path, kDir, sizeof kDir - 1) == 0 &&
         std::string_view(s.path + sizeof kDir - 1) == name;
}

}  // namespace

void add_pending_name(std::string_view name) {
  if (name.size() + sizeof kDir > kPathMax) return;
  for (Slot& s : slots) {
    int expected = Slot::free_;
    if (!s.state.compare_exchange_strong(expected, Slot::busy, std::memory_order_acquire)) continue;
    std::memcpy(s.path, kDir, sizeof kDir - 1);
    std::memcpy(s.path + sizeof kDir - 1, name.data(), name.size());
    s.path[sizeof kDir - 1 + name.size()] = '\0';
    s.state.store(Slot::set, std::memory_order_release);
    return;
  }
}

void remove_pending_name(std::string_view name) {
  for (Slot& s : slots) {
    if (s.state.load(std::memory_order_acquire) != Slot::set || !holds(s, name)) continue;
    int expected = Slot::set;
    if (!s.state.compare_exchange_strong(expected, Slot::busy, std::memory_order_acquire)) continue;
    s.path[0] = '\0';
    s.state.store(Slot::free_, std::memory_order_release);
    return;
  }
}

void unlink_pending_names() noexcept {
  for (Slot& s : slots)
    if (s.state.load(std::memory_order_acquire) == Slot::set) ::unlink(s.path);
}

}  // namespace rma
