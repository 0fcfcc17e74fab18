// queue_probe.hpp — the shm transport's receive queue alone, for the benchmark floor: two
// queues (one per direction) laid out in memory two processes map, and the three steps of
// an 8-byte packet round trip through them. It lets `rmabench bench` measure, in the same
// run as the am figures, what the transport under the am path costs with no engine on
// either side (the same queue code, shm/shm_queue.hpp, that the engine's packets take).
#pragma once

#include <cstddef>

namespace rma {

class QueueProbe {
 public:
  // Bytes of shared memory the two queues take; zeroed memory is two empty queues.
  static std::size_t bytes();

  // `memory`: bytes() of zeroed memory every side maps; `side` 0 or 1.
  QueueProbe(void* memory, int side);
  ~QueueProbe();
  QueueProbe(const QueueProbe&) = delete;
  QueueProbe& operator=(const QueueProbe&) = delete;

  // Writes an 8-byte packet into the other side's queue; false while it is full.
  bool try_send();
  // Takes one packet from this side's queue; false when none waits.
  bool try_receive();
  // Takes one packet and writes the reply while handling it, as the engine answers a
  // request; false when none waits.
  bool try_answer();

 private:
  struct Queues;
  Queues* q_;
};

}  // namespace rma
