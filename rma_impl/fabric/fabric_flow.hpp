// fabric_flow.hpp — the two per-peer disciplines under the fabric transport, kept free of
// libfabric so they can be tested alone.
//
// Credits: a rank pre-posts receive buffers for every peer; a peer may have at most `window`
// messages to it that it has not consumed yet, so no message ever finds no buffer. Each
// consumed message owes the sender a credit back. Credits go back piggybacked on any message
// to that peer, or, once half a window is owed and nothing is going that way, in an explicit
// credit message. Credit messages need no credit themselves: each returns at least half a
// window, so at most two can be unread at the receiver at once, and two extra buffers per
// peer hold them.
//
//   Credits c(32);
//   if (!c.take()) return false;          // sender: no credit, the engine retries later
//   hdr.credits = c.piggyback();          // sender: return what we owe on this message
//   c.returned(hdr_in.credits);           // receiver of any message from the peer
//   c.consumed();  if (c.explicit_due()) send_credit_message(c.piggyback());
//
// InOrder: sequence numbers per sender restore the order of messages whose completions the
// provider may report out of order (or that a provider without FI_ORDER_SAS delivers out of
// order). A message that arrives early waits, holding its receive buffer; the sender's
// credits bound how many can wait.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>

namespace rma::fabric {

class Credits {
 public:
  explicit Credits(std::uint32_t window = 0) : window_(window), available_(window) {}

  std::uint32_t window() const { return window_; }
  std::uint32_t available() const { return available_; }
  std::uint32_t owed() const { return owed_; }

  // Sender: one credit for a message to the peer; false when none is left.
  bool take() {
    if (available_ == 0) return false;
    --available_;
    return true;
  }
  // Sender: the message the credit was taken for did not leave after all.
  void refund() { ++available_; }
  // Any message from the peer: the credits it returned.
  void returned(std::uint32_t n) { available_ += n; }

  // Receiver: a message from the peer was consumed (its buffer is posted again).
  void consumed() { ++owed_; }
  // Credits to return on a message now going to the peer (at most what one header holds).
  std::uint8_t piggyback() {
    const auto n = static_cast<std::uint8_t>(std::min<std::uint32_t>(owed_, 255));
    owed_ -= n;
    return n;
  }
  // The message that was to carry `n` credits back did not leave: they are owed again.
  void unreturn(std::uint8_t n) { owed_ += n; }
  // Enough is owed that it must go back even if no message is going that way.
  // Half the window, rounded up: then at most two credit messages can be unread at once.
  bool explicit_due() const { return owed_ > 0 && owed_ >= (window_ + 1) / 2; }

 private:
  std::uint32_t window_;
  std::uint32_t available_;
  std::uint32_t owed_ = 0;
};

// Buffers a receiver must post for `peers` peers at `window` credits each: the window plus
// the two buffers that unread explicit credit messages may occupy.
inline std::uint32_t receive_buffers(std::uint32_t peers, std::uint32_t window) {
  return peers * (window + 2);
}

template <class T>
class InOrder {
 public:
  explicit InOrder(std::uint32_t first = 0) : next_(first) {}

  // Takes message `seq` from the sender; appends to `out`, in order, every message that can
  // now be delivered. Returns false if `seq` was a duplicate of one already taken (dropped).
  bool push(std::uint32_t seq, T item, std::deque<T>& out) {
    const auto ahead = static_cast<std::int32_t>(seq - next_);
    if (ahead < 0 || held_.count(seq)) return false;
    if (ahead > 0) {
      held_.emplace(seq, std::move(item));
      ++reordered_;
      return true;
    }
    out.push_back(std::move(item));
    ++next_;
    for (auto it = held_.find(next_); it != held_.end(); it = held_.find(next_)) {
      out.push_back(std::move(it->second));
      held_.erase(it);
      ++next_;
    }
    return true;
  }
  std::size_t held() const { return held_.size(); }
  std::uint64_t reordered() const { return reordered_; }

 private:
  std::uint32_t next_ = 0;
  std::map<std::uint32_t, T> held_;
  std::uint64_t reordered_ = 0;
};

}  // namespace rma::fabric
