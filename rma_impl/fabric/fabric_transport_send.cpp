// The fabric transport's sending (see fabric_transport.hpp): every message in a send buffer
// of ours behind its wire header, taking a credit; packets and control messages in one
// ordered channel per peer, messages to this rank through a local queue; credits returned
// when no message carries them; a send buffer freed by its completion.
#include <rdma/fi_errno.h>

#include <cstring>

#include "fabric/fabric_transport_impl.hpp"

namespace rma::fabric {

bool TransportImpl::send_raw(int dst, MsgKind kind, std::span<const std::byte> a,
                             std::span<const std::byte> b) {
  const auto d = static_cast<std::size_t>(dst);
  const std::size_t len = sizeof(WireHeader) + a.size() + b.size();
  Credits& cr = credits_[d];
  const bool needs_credit = kind != MsgKind::credit;
  if (needs_credit && !cr.take()) {
    stats_.no_credit.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  std::vector<TxSlot*>* from = len <= kSmallBuffer ? &small_free_ : &large_free_;
  if (from->empty()) {
    if (needs_credit) cr.refund();
    stats_.no_buffer.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  TxSlot* slot = from->back();
  from->pop_back();
  slot->peer = dst;

  const bool sequenced = kind == MsgKind::packet || kind == MsgKind::control;
  WireHeader wh{sequenced ? send_seq_[d] : 0, static_cast<std::uint16_t>(rank_), kind,
                cr.piggyback()};
  std::byte* buf = slot->buf;
  std::memcpy(buf, &wh, sizeof wh);
  if (!a.empty()) std::memcpy(buf + sizeof wh, a.data(), a.size());
  if (!b.empty()) std::memcpy(buf + sizeof wh + a.size(), b.data(), b.size());

  iovec iov{buf, len};
  void* desc = slot->desc;
  fi_msg msg{};
  msg.msg_iov = &iov;
  msg.desc = &desc;
  msg.iov_count = 1;
  msg.addr = addrs_[d];
  msg.context = &slot->fi;
  const ssize_t rc = fi_sendmsg(ep_->ep(), &msg, FI_COMPLETION);
  if (rc != 0) {
    from->push_back(slot);
    cr.unreturn(wh.credits);
    if (needs_credit) cr.refund();
    if (rc == -FI_EAGAIN) {
      stats_.eagain.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
    report_failure(dst, error_text("fi_sendmsg", static_cast<int>(rc)));
    return true;  // gone: the waits that need this peer end with PROC_FAILED
  }
  if (sequenced) ++send_seq_[d];
  ++tx_inflight_;
  return true;
}

bool TransportImpl::try_send(int dst, const progress::PacketHeader& h,
                             std::span<const std::byte> payload) {
  const auto hb = std::as_bytes(std::span(&h, 1));
  if (dst == rank_) {
    if (self_queue_.size() >= kSelfQueue) return false;
    SelfMessage m{false, {hb.begin(), hb.end()}};
    m.bytes.insert(m.bytes.end(), payload.begin(), payload.end());
    self_queue_.push_back(std::move(m));
    stats_.self.fetch_add(1, std::memory_order_relaxed);
    update_incoming();
    return true;
  }
  if (!failed_[static_cast<std::size_t>(dst)].empty()) return true;
  // Control messages queued for dst go first: the channel stays ordered.
  if (!pending_control_[static_cast<std::size_t>(dst)].empty()) {
    flush_control(dst);
    if (!pending_control_[static_cast<std::size_t>(dst)].empty()) return false;
  }
  return send_raw(dst, MsgKind::packet, hb, payload);
}

void TransportImpl::send_control(int dst, std::span<const std::byte> msg) {
  stats_.control.fetch_add(1, std::memory_order_relaxed);
  auto& q = pending_control_[static_cast<std::size_t>(dst)];
  if (dst != rank_ && !failed_[static_cast<std::size_t>(dst)].empty()) return;
  q.emplace_back(msg.begin(), msg.end());
  ++pending_control_total_;
  flush_control(dst);
}

void TransportImpl::flush_control(int dst) {
  auto& q = pending_control_[static_cast<std::size_t>(dst)];
  while (!q.empty()) {
    if (dst == rank_) {
      // Our own control messages are delivered by poll() like anyone's, in order.
      if (self_queue_.size() >= kSelfQueue) return;
      self_queue_.push_back({true, q.front()});
      update_incoming();
    } else if (!send_raw(dst, MsgKind::control, q.front(), {})) {
      return;
    }
    q.pop_front();
    --pending_control_total_;
  }
}

void TransportImpl::return_credits() {
  for (int p = 0; p < size_; ++p) {
    if (p == rank_ || !failed_[static_cast<std::size_t>(p)].empty()) continue;
    if (!credits_[static_cast<std::size_t>(p)].explicit_due()) continue;
    if (send_raw(p, MsgKind::credit, {}, {})) stats_.credit.fetch_add(1, std::memory_order_relaxed);
  }
}

void TransportImpl::tx_done(Completion& c, std::size_t, int err) {
  auto& s = static_cast<TxSlot&>(c);
  auto* t = static_cast<TransportImpl*>(s.owner);
  --t->tx_inflight_;
  s.home->push_back(&s);
  if (err && !(t->closing_ && err == FI_ECANCELED))
    t->report_failure(s.peer, "a send to it failed: " + t->last_error_);
}

}  // namespace rma::fabric
