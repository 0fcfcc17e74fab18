// The trace ring of rma/trace.hpp: one per process, guarded by a mutex that only a process
// recording a trace ever takes.
#include "rma/trace.hpp"

#include <chrono>
#include <cstdio>
#include <mutex>

#include "progress/packet.hpp"

namespace rma::trace {
namespace {

struct Ring {
  std::mutex mu;
  std::vector<Event> slots;
  std::size_t next = 0;   // where the next event goes
  std::size_t count = 0;  // events held (<= slots.size())
  std::uint64_t dropped = 0;
  std::atomic<bool> recording{true};  // read without the mutex: a paused ring costs no lock
};

Ring& ring() {
  static Ring r;
  return r;
}

}  // namespace

void enable(std::size_t capacity) {
  Ring& r = ring();
  {
    std::lock_guard g(r.mu);
    r.slots.assign(capacity ? capacity : 1, Event{});
    r.next = r.count = 0;
    r.dropped = 0;
  }
  detail::g_enabled.store(true, std::memory_order_relaxed);
}

void clear() {
  Ring& r = ring();
  std::lock_guard g(r.mu);
  r.next = r.count = 0;
  r.dropped = 0;
}

void set_recording(bool on) {
  ring().recording.store(on, std::memory_order_relaxed);
}

bool recording() {
  return ring().recording.load(std::memory_order_relaxed);
}

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void record(const Event& e) {
  Ring& r = ring();
  if (!r.recording.load(std::memory_order_relaxed)) return;
  std::lock_guard g(r.mu);
  if (r.slots.empty()) return;
  r.slots[r.next] = e;
  r.next = (r.next + 1) % r.slots.size();
  if (r.count < r.slots.size())
    ++r.count;
  else
    ++r.dropped;
}

std::vector<Event> snapshot() {
  Ring& r = ring();
  std::lock_guard g(r.mu);
  std::vector<Event> out;
  out.reserve(r.count);
  const std::size_t n = r.slots.size();
  for (std::size_t i = 0; i < r.count; ++i) out.push_back(r.slots[(r.next + n - r.count + i) % n]);
  return out;
}

std::uint64_t dropped() {
  Ring& r = ring();
  std::lock_guard g(r.mu);
  return r.dropped;
}

std::vector<std::string> flag_names(std::uint16_t flags) {
  using namespace rma::progress;
  static constexpr std::pair<std::uint16_t, const char*> names[] = {
      {flag_lock_shared, "lock_shared"},
      {flag_lock_exclusive, "lock_exclusive"},
      {flag_unlock, "unlock"},
      {flag_ack_req, "ack_req"},
      {flag_done, "done"},
      {flag_fence_last, "fence_last"},
      {flag_rndv, "rndv"},
      {flag_error, "error"},
      {flag_pscw, "pscw"},
      {flag_fence, "fence"},
      {flag_layout, "layout"},
  };
  static_assert(
      [] {
        std::uint16_t all = 0;
        for (const auto& n : names) all |= n.first;
        return all == kAllPacketFlags;
      }(),
      "every packet flag has a name here");
  std::vector<std::string> out;
  std::uint16_t known = 0;
  for (const auto& [bit, name] : names) {
    known |= bit;
    if (flags & bit) out.emplace_back(name);
  }
  if (flags & ~known) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%x", static_cast<unsigned>(flags & ~known));
    out.emplace_back(hex);
  }
  return out;
}

}  // namespace rma::trace
