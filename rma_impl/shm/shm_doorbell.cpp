#include "shm/shm_doorbell.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <climits>

namespace rma::shm {
namespace {

// Shared (not FUTEX_PRIVATE) futex operations: the word lives in a segment several
// processes map.
long futex(std::atomic<std::uint32_t>* addr, int op, std::uint32_t val, const timespec* ts) {
  return ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(addr), op, val, ts, nullptr, 0);
}

}  // namespace

bool Doorbell::notify_awake() {
  if (awake.load(std::memory_order_seq_cst) != 0) return false;
  ring();
  return true;
}

void Doorbell::ring() {
  seq.fetch_add(1, std::memory_order_seq_cst);
  futex(&seq, FUTEX_WAKE, INT_MAX, nullptr);
}

void Doorbell::wait(std::uint32_t token, std::chrono::microseconds timeout) {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(timeout.count() / 1000000);
  ts.tv_nsec = static_cast<long>((timeout.count() % 1000000) * 1000);
  futex(&seq, FUTEX_WAIT, token, &ts);  // EAGAIN when seq moved on: that is a wake-up
  sleepers.fetch_sub(1, std::memory_order_seq_cst);
}

}  // namespace rma::shm
