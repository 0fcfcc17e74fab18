// shm_queue_probe.cpp — rma::QueueProbe over the shm transport's own queue (shm_queue.hpp).
#include "rma/queue_probe.hpp"

#include <new>

#include "progress/packet.hpp"
#include "shm/shm_queue.hpp"

namespace rma {
namespace {

constexpr std::size_t kQueueBytes = 1 << 15;  // room for many 8-byte packets; only one flies

struct Layout {
  shm::QueueCtl ctl[2];
  alignas(64) std::byte data[2][kQueueBytes];
};

}  // namespace

struct QueueProbe::Queues {
  shm::QueueReader in;
  shm::QueueWriter out;
  progress::PacketHeader header = progress::make_header(PacketType::put);
  std::byte payload[8]{};
  bool owed = false;  // a reply that found the queue full, written by the next try_answer
};

std::size_t QueueProbe::bytes() {
  return sizeof(Layout);
}

QueueProbe::QueueProbe(void* memory, int side) : q_(new Queues) {
  // Zeroed memory is two valid empty queues: nothing to construct in it.
  auto* l = static_cast<Layout*>(memory);
  const int other = 1 - side;
  q_->in = shm::QueueReader(&l->ctl[side], l->data[side], kQueueBytes);
  q_->out = shm::QueueWriter(&l->ctl[other], l->data[other], kQueueBytes, side);
}

QueueProbe::~QueueProbe() {
  delete q_;
}

bool QueueProbe::try_send() {
  return q_->out.try_write(q_->header, q_->payload);
}

bool QueueProbe::try_receive() {
  return q_->in.read([](int, const progress::PacketHeader&, std::span<const std::byte>) {}, 1) > 0;
}

bool QueueProbe::try_answer() {
  if (q_->owed) {
    q_->owed = !try_send();
    return !q_->owed;
  }
  const int got = q_->in.read([this](int, const progress::PacketHeader&,
                                     std::span<const std::byte>) { q_->owed = !try_send(); },
                              1);
  return got > 0 && !q_->owed;
}

}  // namespace rma
