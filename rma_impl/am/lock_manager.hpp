// lock_manager.hpp — the target side of passive-target synchronization for one window.
//
// Requests are granted or queued by the compatibility table (shared with shared; exclusive
// with nothing) and, for fairness, a request never overtakes one already waiting: a shared
// request behind a waiting exclusive one waits too. When a holder releases, the head of the
// FIFO is granted (an exclusive request alone, or every shared request at the head).
// A request may carry the op that travelled with it (the seed notes' singleton op); the
// manager keeps it, data included, until the grant and hands it back.
//
//   if (lm.request({origin, LockType::shared})) grant_now(origin);
//   for (LockRequest& r : lm.release(origin)) grant_now(r.origin /*, r.op */);
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "progress/packet.hpp"
#include "rma/types.hpp"

namespace rma::am {

// An op packet that waited for its lock, with its payload copied.
struct HeldPacket {
  progress::PacketHeader header;
  std::vector<std::byte> payload;
};

struct LockRequest {
  int origin = 0;
  LockType type = LockType::exclusive;
  std::unique_ptr<HeldPacket> op;  // the op that came with the request, if any
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
  bool idle() const { return holders_.empty() && waiting_.empty(); }
  std::size_t waiting() const { return waiting_.size(); }
  // "exclusive by 2", "shared by 0, 3", "" — for state dumps.
  std::string holders_text() const;
  // "shared 3, exclusive 1" in FIFO order.
  std::string waiters_text() const;

 private:
  bool compatible(LockType t) const;

  struct Holder {
    int origin;
    LockType type;
  };
  std::vector<Holder> holders_;
  std::deque<LockRequest> waiting_;
};

}  // namespace rma::am
