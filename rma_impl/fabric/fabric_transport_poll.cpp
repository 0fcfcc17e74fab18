// The fabric transport's completions (see fabric_transport.hpp): the completion queue read,
// a received message put in order (or answered: credits, probes) and delivered by poll();
// and waiting for the next one, on the queue's wait object, a descriptor, or short naps.
#include <rdma/fi_errno.h>

#include <array>
#include <cstring>

#include "fabric/fabric_transport_impl.hpp"

namespace rma::fabric {

void TransportImpl::rx_done(Completion& c, std::size_t len, int err) {
  auto& s = static_cast<RxSlot&>(c);
  auto* t = static_cast<TransportImpl*>(s.owner);
  if (err) {
    if (err != FI_ECANCELED) t->stats_.rx_error.fetch_add(1, std::memory_order_relaxed);
    if (!t->closing_) t->post(s);
    return;
  }
  WireHeader wh;
  std::memcpy(&wh, s.buf, sizeof wh);
  if (len < sizeof wh || wh.src >= t->size_) {
    t->stats_.rx_error.fetch_add(1, std::memory_order_relaxed);
    t->post(s);
    return;
  }
  const auto src = static_cast<std::size_t>(wh.src);
  Credits& cr = t->credits_[src];
  cr.returned(wh.credits);
  if (!t->hosts_.same_host(t->rank_, wh.src)) t->liveness_[src].heard(Clock::now());
  s.peer = wh.src;
  s.len = len;
  s.kind = wh.kind;
  switch (wh.kind) {
    case MsgKind::credit:  // took no credit, owes none
      t->post(s);
      return;
    case MsgKind::probe:
      if (!t->reply_due_[src]) {  // answered from poll(), where sending may wait for a credit
        t->reply_due_[src] = 1;
        ++t->replies_due_;
      }
      t->post(s);
      cr.consumed();
      return;
    case MsgKind::probe_reply:
      t->post(s);
      cr.consumed();
      return;
    case MsgKind::packet:
    case MsgKind::control: {
      const std::size_t before = t->order_[src].held();
      if (!t->order_[src].push(wh.seq, &s, t->ready_)) {
        t->post(s);  // a duplicate: nothing to deliver
        cr.consumed();
      }
      if (t->order_[src].held() > before) t->reordered_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
  t->post(s);
}

void TransportImpl::handle(const fi_cq_msg_entry& e) {
  if (!e.op_context) return;
  auto* c = reinterpret_cast<Completion*>(e.op_context);
  c->done(*c, e.len, 0);
}

void TransportImpl::read_error() {
  fi_cq_err_entry err{};
  if (fi_cq_readerr(ep_->cq(), &err, 0) <= 0) return;
  char text[256] = "";
  const char* why = fi_cq_strerror(ep_->cq(), err.prov_errno, err.err_data, text, sizeof text);
  last_error_ =
      std::string(api_.strerror(err.err)) + (why && *why ? std::string(" (") + why + ")" : "");
  if (!err.op_context) return;
  auto* c = reinterpret_cast<Completion*>(err.op_context);
  c->done(*c, 0, err.err ? err.err : FI_EOTHER);
}

void TransportImpl::drive_cq() {
  std::array<fi_cq_msg_entry, 16> e;
  for (int round = 0; round < 8; ++round) {
    const ssize_t n = fi_cq_read(ep_->cq(), e.data(), e.size());
    if (n == -FI_EAVAIL) {
      read_error();
      continue;
    }
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) handle(e[static_cast<std::size_t>(i)]);
    if (static_cast<std::size_t>(n) < e.size()) break;
  }
}

// Completions a thread read inside fi_cq_sread while it slept without the engine lock.
void TransportImpl::take_stash() {
  std::vector<fi_cq_msg_entry> mine;
  {
    std::lock_guard g(stash_mu_);
    if (stash_.empty()) return;
    mine.swap(stash_);
    stash_size_.store(0, std::memory_order_seq_cst);
  }
  for (const auto& e : mine) handle(e);
}

void TransportImpl::deliver_one(progress::PacketSink* sink, RxSlot& s) {
  const std::byte* body = s.buf + sizeof(WireHeader);
  const std::size_t body_len = s.len - sizeof(WireHeader);
  if (s.kind == MsgKind::packet) {
    if (sink && body_len >= sizeof(progress::PacketHeader)) {
      progress::PacketHeader h;
      std::memcpy(&h, body, sizeof h);
      sink->deliver(s.peer, h, {body + sizeof h, body_len - sizeof h});
    }
  } else if (control_sink_) {
    control_sink_->control(s.peer, {body, body_len});
  }
  credits_[static_cast<std::size_t>(s.peer)].consumed();
  post(s);
}

int TransportImpl::poll(progress::PacketSink& sink, int max_packets) {
  take_stash();
  drive_cq();
  int n = 0;
  while (n < max_packets && !self_queue_.empty()) {
    SelfMessage m = std::move(self_queue_.front());
    self_queue_.pop_front();
    if (m.control) {
      if (control_sink_) control_sink_->control(rank_, m.bytes);
    } else {
      progress::PacketHeader h;
      std::memcpy(&h, m.bytes.data(), sizeof h);
      sink.deliver(rank_, h, std::span(m.bytes).subspan(sizeof h));
    }
    ++n;
  }
  while (n < max_packets && !ready_.empty()) {
    RxSlot* s = ready_.front();
    ready_.pop_front();
    deliver_one(&sink, *s);
    ++n;
  }
  if (!repost_.empty()) {
    std::vector<RxSlot*> again;
    again.swap(repost_);
    for (RxSlot* s : again) post(*s);
  }
  if (pending_control_total_)
    for (int p = 0; p < size_; ++p) flush_control(p);
  return_credits();
  reply_probes();
  update_incoming();
  return n;
}

// --- waiting --------------------------------------------------------------------------------

namespace {
// sleep_cancel() gets no token: the thread that prepared remembers its slot.
thread_local std::pair<const void*, std::uint64_t> t_sleep_slot{nullptr, 0};
}  // namespace

std::uint64_t TransportImpl::sleep_prepare() {
  if (ep_->wait_mode() == WaitMode::sread) {
    sread_sleepers_.fetch_add(1, std::memory_order_seq_cst);
    return 0;
  }
  const std::uint64_t token = waiter_.prepare();
  t_sleep_slot = {this, token};
  return token;
}

void TransportImpl::sleep_cancel() {
  if (ep_->wait_mode() == WaitMode::sread) {
    sread_sleepers_.fetch_sub(1, std::memory_order_seq_cst);
    return;
  }
  if (t_sleep_slot.first == this) waiter_.cancel(t_sleep_slot.second);
  t_sleep_slot = {nullptr, 0};
}

void TransportImpl::sleep(std::uint64_t token, std::chrono::microseconds timeout) {
  switch (ep_->wait_mode()) {
    case WaitMode::sread: {
      // The provider blocks and makes progress inside; what it returns is handled by the
      // next poll, under the engine lock.
      std::array<fi_cq_msg_entry, 16> e;
      const int ms = std::max(1, static_cast<int>((timeout.count() + 999) / 1000));
      const ssize_t n = fi_cq_sread(ep_->cq(), e.data(), e.size(), nullptr, ms);
      if (n > 0) {
        std::lock_guard g(stash_mu_);
        stash_.insert(stash_.end(), e.begin(), e.begin() + n);
        stash_size_.store(stash_.size(), std::memory_order_seq_cst);
        incoming_.fetch_add(static_cast<std::size_t>(n), std::memory_order_seq_cst);
      }
      sread_sleepers_.fetch_sub(1, std::memory_order_seq_cst);
      return;
    }
    case WaitMode::none:
      // Nothing to block on: short naps bound both the latency and the polling rate.
      waiter_.sleep(token, std::min(timeout, kNap));
      break;
    case WaitMode::fd:
      waiter_.sleep(token, timeout);
      break;
  }
  t_sleep_slot = {nullptr, 0};
}

void TransportImpl::wake_local() {
  if (ep_->wait_mode() == WaitMode::sread)
    fi_cq_signal(ep_->cq());
  else
    waiter_.wake_all();
}

bool TransportImpl::has_sleepers() const {
  if (ep_->wait_mode() == WaitMode::sread)
    return sread_sleepers_.load(std::memory_order_seq_cst) > 0;
  return waiter_.has_sleepers();
}

}  // namespace rma::fabric
