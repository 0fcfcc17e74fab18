// The fabric transport (see fabric_transport.hpp): its setup (buffers, credits, posted
// receives), shutting it down, failure detection and counters, and create_transport. Sending
// is in fabric_transport_send.cpp, completions, receiving and waiting in
// fabric_transport_poll.cpp; the class is in fabric_transport_impl.hpp.
#include "fabric/fabric_transport.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <thread>

#include "fabric/fabric_transport_impl.hpp"

namespace rma::fabric {

// --- setup ----------------------------------------------------------------------------------

Status TransportImpl::init() {
  const fi_info& info = ep_->info();
  const auto n = static_cast<std::size_t>(size_);
  const std::size_t peers = std::max<std::size_t>(1, n - 1);
  max_payload_ = std::min<std::size_t>(
      max_payload_for(size_), (info.ep_attr->max_msg_size - kPacketHeaderBytes) & ~std::size_t{7});
  slot_bytes_ = round64(kPacketHeaderBytes + max_payload_);

  // Credits per peer: generous for small jobs, at least 2, and never more buffers than the
  // provider's receive queue takes.
  const std::size_t rx_depth = info.rx_attr->size ? info.rx_attr->size : 1024;
  std::size_t window = std::clamp<std::size_t>(128 / peers, 4, 32);
  window = std::min(window, rx_depth / peers >= 2 ? rx_depth / peers - 2 : 0);
  if (window < 2)
    return {ErrorClass::unsupported, "fabric provider " + ep_->provider() +
                                         ": its receive queue (" + std::to_string(rx_depth) +
                                         " entries) is too small for " + std::to_string(size_) +
                                         " ranks"};
  credits_.assign(n, Credits(static_cast<std::uint32_t>(window)));
  send_seq_.assign(n, 0);
  order_.resize(n);
  pending_control_.resize(n);
  failed_.assign(n, {});
  liveness_.assign(n, Liveness(liveness_timeout_));
  reply_due_.assign(n, 0);

  const std::size_t rx_count = size_ > 1 ? receive_buffers(static_cast<std::uint32_t>(peers),
                                                           static_cast<std::uint32_t>(window))
                                         : 0;
  RMA_TRY(rx_pool_.allocate(*ep_, rx_count * slot_bytes_));
  rx_slots_.resize(rx_count);
  for (std::size_t i = 0; i < rx_count; ++i) {
    RxSlot& s = rx_slots_[i];
    s.buf = rx_pool_.mem + i * slot_bytes_;
    s.done = &TransportImpl::rx_done;
    s.owner = this;
  }

  const std::size_t tx_depth = info.tx_attr->size ? info.tx_attr->size : 256;
  const std::size_t n_small = std::min<std::size_t>(128, std::max<std::size_t>(1, tx_depth / 2));
  const std::size_t n_large = std::min<std::size_t>(8, std::max<std::size_t>(1, tx_depth / 8));
  RMA_TRY(small_pool_.allocate(*ep_, n_small * kSmallBuffer));
  RMA_TRY(large_pool_.allocate(*ep_, n_large * slot_bytes_));
  tx_slots_.resize(n_small + n_large);
  std::size_t k = 0;
  auto setup = [&](std::size_t count, std::vector<TxSlot*>& home, BufferPool* pool,
                   std::size_t bytes) {
    for (std::size_t i = 0; i < count; ++i, ++k) {
      TxSlot& s = tx_slots_[k];
      s.done = &TransportImpl::tx_done;
      s.owner = this;
      s.home = &home;
      s.buf = pool->mem + i * bytes;
      s.desc = pool->mr.desc();
      home.push_back(&s);
    }
  };
  setup(n_small, small_free_, &small_pool_, kSmallBuffer);
  setup(n_large, large_free_, &large_pool_, slot_bytes_);

  if (ep_->wait_mode() != WaitMode::sread)
    RMA_TRY(waiter_.init(ep_->fabric(), ep_->cq(), ep_->wait_fd()));
  // Posted before the address is published: whoever can reach us finds buffers waiting.
  for (RxSlot& s : rx_slots_) post(s);
  return Status::ok();
}

void TransportImpl::post(RxSlot& s) {
  if (closing_) return;
  void* desc = rx_pool_.mr.desc();
  const ssize_t rc = fi_recv(ep_->ep(), s.buf, slot_bytes_, desc, FI_ADDR_UNSPEC, &s.fi);
  if (rc != 0) repost_.push_back(&s);  // the queue is full for now (EAGAIN): again later
}

void TransportImpl::shut_down() {
  // What we sent must leave before the endpoint closes: a peer may still wait for it.
  closing_ = true;
  const auto deadline = Clock::now() + std::chrono::seconds(2);
  while (tx_inflight_ > 0 && Clock::now() < deadline) {
    drive_cq();
    if (tx_inflight_ > 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  // The endpoint goes before the buffers its posted receives point into.
  ep_->close_endpoint();
}

// --- failures -------------------------------------------------------------------------------

void TransportImpl::report_failure(int peer, const std::string& why) {
  if (peer < 0 || peer >= size_ || peer == rank_) return;
  auto& f = failed_[static_cast<std::size_t>(peer)];
  if (f.empty()) f = "rank " + std::to_string(peer) + " is unreachable: " + why;
}

// Runs where every sending call runs: under the engine lock.
Status TransportImpl::peer_status(int peer) const {
  if (peer < 0 || peer >= size_ || peer == rank_) return Status::ok();
  const auto p = static_cast<std::size_t>(peer);
  if (!failed_[p].empty()) return {ErrorClass::proc_failed, failed_[p]};
  if (hosts_.same_host(rank_, peer)) {
    const pid_t pid = hosts_.pids[p];
    if (pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH)
      return {ErrorClass::proc_failed,
              "rank " + std::to_string(peer) + " (pid " + std::to_string(pid) + ") has exited"};
    return Status::ok();
  }
  // A peer elsewhere: alive while it answers (fabric_liveness.hpp). Probing also makes the
  // provider try the connection, so its own errors surface too.
  const auto now = Clock::now();
  Liveness& l = liveness_[p];
  switch (l.check(now)) {
    case Liveness::alive:
      break;
    case Liveness::probe:
      const_cast<TransportImpl*>(this)->probe(peer);
      break;
    case Liveness::gone: {
      char quiet[32];
      std::snprintf(quiet, sizeof quiet, "%.1f", l.quiet_s(now));
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", static_cast<double>(l.timeout().count()) / 1000);
      const_cast<TransportImpl*>(this)->report_failure(
          peer, std::string("nothing from it, and no reply to liveness probes, for ") + quiet +
                    " s (liveness timeout RMA_LIVENESS_S=" + limit + ")");
      return {ErrorClass::proc_failed, failed_[p]};
    }
  }
  return Status::ok();
}

void TransportImpl::probe(int peer) {
  if (send_raw(peer, MsgKind::probe, {}, {})) stats_.probe.fetch_add(1, std::memory_order_relaxed);
}

void TransportImpl::reply_probes() {
  for (int p = 0; p < size_ && replies_due_ > 0; ++p) {
    auto& due = reply_due_[static_cast<std::size_t>(p)];
    if (!due) continue;
    const bool gone = !failed_[static_cast<std::size_t>(p)].empty();
    if (gone || send_raw(p, MsgKind::probe_reply, {}, {})) {
      due = 0;
      --replies_due_;
      if (!gone) stats_.probe_reply.fetch_add(1, std::memory_order_relaxed);
    }
  }
}

void TransportImpl::add_counters(Counters& c) const {
  auto add = [&](const char* name, std::uint64_t v) {
    if (v) c.transport[name] += v;
  };
  add("credit", stats_.credit.load(std::memory_order_relaxed));
  add("probe", stats_.probe.load(std::memory_order_relaxed));
  add("probe_reply", stats_.probe_reply.load(std::memory_order_relaxed));
  add("control", stats_.control.load(std::memory_order_relaxed));
  add("no_credit", stats_.no_credit.load(std::memory_order_relaxed));
  add("no_buffer", stats_.no_buffer.load(std::memory_order_relaxed));
  add("eagain", stats_.eagain.load(std::memory_order_relaxed));
  add("self", stats_.self.load(std::memory_order_relaxed));
  add("rx_error", stats_.rx_error.load(std::memory_order_relaxed));
  add("reordered", reordered_.load(std::memory_order_relaxed));
}

std::size_t max_payload_for(int ranks) {
  // The shm transport's rings: 256, 64 or 32 KiB per pair, records of at most half a ring
  // minus a 56-byte record head, and never above 64 KiB.
  if (ranks <= 8) return 64 * 1024;
  if (ranks <= 32) return 32 * 1024 - 56;
  return 16 * 1024 - 56;
}

Result<std::unique_ptr<progress::Transport>> create_transport(bootstrap::Bootstrap& boot,
                                                              const RuntimeConfig& config) {
  auto loaded = api();
  if (!loaded) return loaded.status();
  const Api& fi = *loaded.value();
  const std::string provider = config.provider.empty() ? "tcp;ofi_rxm" : config.provider;

  auto liveness = liveness_timeout_from_env();
  if (!liveness) return liveness.status();
  auto hosts = exchange_hosts(boot);
  if (!hosts) return hosts.status();
  EndpointOptions eo;
  eo.provider = provider;
  eo.loopback = hosts->all_local();
  eo.av_size = static_cast<std::size_t>(boot.size());
  auto ep = Endpoint::open(fi, eo);
  if (!ep) return ep.status();
  auto me = ep.value()->name();
  if (!me) return me.status();

  auto t = std::make_unique<TransportImpl>(fi, std::move(ep.value()), boot.rank(), boot.size(),
                                           std::move(hosts.value()), liveness.value());
  RMA_TRY(t->init());
  auto names = exchange_names(boot, me.value());
  if (!names) return names.status();
  RMA_TRY(t->connect(names.value()));
  return std::unique_ptr<progress::Transport>(std::move(t));
}

}  // namespace rma::fabric
