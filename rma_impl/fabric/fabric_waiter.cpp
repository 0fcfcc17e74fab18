#include "fabric/fabric_waiter.hpp"

#include <rdma/fi_domain.h>
#include <rdma/fi_eq.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <thread>

namespace rma::fabric {

FdWaiter::~FdWaiter() {
  for (Slot& s : slots_) {
    if (s.epoll_fd >= 0) ::close(s.epoll_fd);
    if (s.event_fd >= 0) ::close(s.event_fd);
  }
}

Status FdWaiter::init(fid_fabric* fabric, fid_cq* cq, int cq_fd) {
  fabric_ = fabric;
  cq_ = cq;
  has_cq_fd_ = cq_fd >= 0;
  for (Slot& s : slots_) {
    s.event_fd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    s.epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
    if (s.event_fd < 0 || s.epoll_fd < 0)
      return {ErrorClass::other, std::string("fabric waiter: ") + std::strerror(errno)};
    epoll_event ev{};
    ev.events = EPOLLIN;
    if (::epoll_ctl(s.epoll_fd, EPOLL_CTL_ADD, s.event_fd, &ev) != 0 ||
        (cq_fd >= 0 && ::epoll_ctl(s.epoll_fd, EPOLL_CTL_ADD, cq_fd, &ev) != 0))
      return {ErrorClass::other, std::string("fabric waiter: epoll_ctl: ") + std::strerror(errno)};
  }
  return Status::ok();
}

std::uint64_t FdWaiter::prepare() {
  for (std::size_t i = 0; i < kSlots; ++i) {
    Slot& s = slots_[i];
    bool expected = false;
    if (!s.taken.compare_exchange_strong(expected, true, std::memory_order_acquire)) continue;
    std::uint64_t drained;
    while (::read(s.event_fd, &drained, sizeof drained) > 0) {
    }
    s.armed.store(true, std::memory_order_seq_cst);
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    return i;
  }
  // More sleeping threads than slots (never with the engine's two): a timed nap, see sleep().
  return kNoSlot;
}

void FdWaiter::release(std::uint64_t token) {
  if (token == kNoSlot) return;
  Slot& s = slots_[token];
  s.armed.store(false, std::memory_order_seq_cst);
  sleepers_.fetch_sub(1, std::memory_order_seq_cst);
  s.taken.store(false, std::memory_order_release);
}

void FdWaiter::cancel(std::uint64_t token) {
  release(token);
}

void FdWaiter::sleep(std::uint64_t token, std::chrono::microseconds timeout) {
  if (token == kNoSlot) {
    std::this_thread::sleep_for(std::min(timeout, std::chrono::microseconds(1000)));
    return;
  }
  Slot& s = slots_[token];
  // Blocking on the descriptor is only safe once the provider says nothing is pending.
  fid* fids[1] = {&cq_->fid};
  if (!has_cq_fd_ || fi_trywait(fabric_, fids, 1) == 0) {
    const auto ms = std::max<long>(1, static_cast<long>((timeout.count() + 999) / 1000));
    epoll_event ev[2];
    (void)::epoll_wait(s.epoll_fd, ev, 2, static_cast<int>(ms));
  }
  release(token);
}

void FdWaiter::wake_all() {
  const std::uint64_t one = 1;
  for (Slot& s : slots_)
    if (s.armed.load(std::memory_order_seq_cst)) (void)!::write(s.event_fd, &one, sizeof one);
}

}  // namespace rma::fabric
