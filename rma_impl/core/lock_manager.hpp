// lock_manager.hpp — the target side of passive-target synchronization for one window, for
// every path that grants locks by message (the am protocol, fabric's direct path): it sits in
// the core so that a backend uses it without depending on am/.
//
// Requests are granted or queued by the compatibility table (shared with shared; exclusive
// with nothing) and, for fairness, a request never overtakes one already waiting: a shared
// request behind a waiting exclusive one waits too. When a holder releases, the head of the
// FIFO is granted (an exclusive request alone, or every shared request at the head).
// A request may carry the ops that travelled with it (the seed notes' singleton op; under the
// fewest protocol every packet the origin sends ahead of its grant); the manager keeps them,
// data included, in arrival order until the grant and hands them back.
//
//   if (lm.request({origin, LockType::shared})) grant_now(origin);
//   for (LockRequest& r : lm.release(origin)) grant_now(r.origin /*, r.held */);
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "progress/packet.hpp"
#include "rma/types.hpp"

namespace rma::core {

// A packet (an op, an unlock, a flush) that waits for its origin's lock, payload copied.
struct HeldPacket {
  progress::PacketHeader header;
  std::vector<std::byte> payload;
};

struct LockRequest {
  int origin = 0;
  LockType type = LockType::exclusive;
  std::vector<HeldPacket> held;  // what came with the request and after it, in order
};

class LockManager {
 public:
  // True if granted now (the request is then a holder); otherwise it waits in the FIFO.
  bool request(LockRequest r);
  // Grants at once if it can, else does nothing: the caller then queues with request() (so a
  // request that comes with an op copies the op only when it must wait).
  bool try_grant(int origin, LockType type);
  // `origin` gives up its lock; returns the requests granted because of it, in FIFO order.
  // Releasing a lock the origin does not hold returns nothing (and changes nothing).
  std::vector<LockRequest> release(int origin);

  bool holds(int origin) const;
  // The request `origin` has waiting, or nullptr (what it sends meanwhile is held there).
  LockRequest* waiting_request(int origin) {
    return waiting_.empty() ? nullptr : find_waiting(origin);  // inline: asked per packet
  }
  bool idle() const { return holders_.empty() && waiting_.empty(); }
  std::size_t waiting() const { return waiting_.size(); }
  // "exclusive by 2", "shared by 0, 3", "" — for state dumps.
  std::string holders_text() const;
  // "shared 3, exclusive 1" in FIFO order.
  std::string waiters_text() const;

 private:
  bool compatible(LockType t) const;
  LockRequest* find_waiting(int origin);

  struct Holder {
    int origin;
    LockType type;
  };
  std::vector<Holder> holders_;
  std::deque<LockRequest> waiting_;
};

}  // namespace rma::core
