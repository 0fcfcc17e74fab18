// fabric_waiter.hpp — how an idle thread of a rank blocks when the completion queue has a
// file descriptor: each sleeping thread takes a slot with its own eventfd and epoll set
// (the CQ's descriptor and that eventfd), so the provider wakes it when something arrives
// and another thread of the rank (wake_all) wakes it when local state changed.
//
// A slot's eventfd is drained when the slot is taken and the slot is published (seq_cst)
// before the caller re-checks its condition; wake_all() writes every published slot's
// eventfd after the waker changed that condition. Either the re-check sees the change or
// the write lands in the eventfd before or during epoll_wait: no wake-up is lost, however
// many threads sleep. fi_trywait runs right before blocking, as libfabric requires.
//
//   auto token = waiter.prepare();   if (work) waiter.cancel(token); else waiter.sleep(token,
//   20ms);
#pragma once

#include <rdma/fabric.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>

#include "rma/status.hpp"

namespace rma::fabric {

class FdWaiter {
 public:
  static constexpr std::size_t kSlots = 8;
  static constexpr std::uint64_t kNoSlot = ~std::uint64_t{0};

  FdWaiter() = default;
  ~FdWaiter();
  FdWaiter(const FdWaiter&) = delete;
  FdWaiter& operator=(const FdWaiter&) = delete;

  // `cq_fd` may be -1 (no provider descriptor): sleepers then only wake on wake_all() or
  // their timeout.
  Status init(fid_fabric* fabric, fid_cq* cq, int cq_fd);

  // Registers the calling thread as a sleeper; the token names its slot.
  std::uint64_t prepare();
  void cancel(std::uint64_t token);
  // Blocks until the CQ has something, wake_all(), or the timeout; then unregisters.
  void sleep(std::uint64_t token, std::chrono::microseconds timeout);
  void wake_all();
  bool has_sleepers() const { return sleepers_.load(std::memory_order_seq_cst) != 0; }

 private:
  struct Slot {
    int event_fd = -1;
    int epoll_fd = -1;
    std::atomic<bool> taken{false};
    std::atomic<bool> armed{false};
  };
  void release(std::uint64_t token);

  fid_fabric* fabric_ = nullptr;
  fid_cq* cq_ = nullptr;
  bool has_cq_fd_ = false;
  std::array<Slot, kSlots> slots_;
  std::atomic<int> sleepers_{0};
};

}  // namespace rma::fabric
