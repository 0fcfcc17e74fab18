// The fabric transport (see fabric_transport.hpp): wire header, credits, order, bounded
// send and receive buffers, waiting, failure detection.
#include "fabric/fabric_transport.hpp"

#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "fabric/fabric_bootstrap.hpp"
#include "fabric/fabric_endpoint.hpp"
#include "fabric/fabric_flow.hpp"
#include "fabric/fabric_liveness.hpp"
#include "fabric/fabric_waiter.hpp"

namespace rma::fabric {
namespace {

using Clock = std::chrono::steady_clock;

// A probe asks the peer for a sign of life, answered by a probe_reply (fabric_liveness.hpp);
// both take a credit, like packets.
enum class Kind : std::uint8_t { packet = 0, control = 1, credit = 2, probe = 3, probe_reply = 4 };

// In front of every message. `seq` orders packets and control messages per sender;
// `credits` returns receive credits to the message's receiver.
struct WireHeader {
  std::uint32_t seq;
  std::uint16_t src;
  Kind kind;
  std::uint8_t credits;
};
static_assert(sizeof(WireHeader) == 8);
constexpr std::size_t kPacketHeaderBytes = sizeof(WireHeader) + sizeof(progress::PacketHeader);
// A sleep without a wait object: a nap this long (nap() gives what it really lasts).
constexpr auto kNap = std::chrono::microseconds(500);
constexpr std::size_t kSmallBuffer = 1024;

std::size_t round64(std::size_t n) {
  return (n + 63) & ~std::size_t{63};
}

struct RxSlot : Completion {
  std::byte* buf = nullptr;
  std::size_t len = 0;
  Kind kind = Kind::packet;
};

// Every send has a buffer of ours until its completion. (FI_INJECT would save the copy, but
// some providers — ofi_rxd — never report completions of injected sends, and without a
// completion nobody knows when the message has left: a rank closing its endpoint could
// drop its last message.)
struct TxSlot : Completion {
  std::byte* buf = nullptr;
  void* desc = nullptr;
  std::vector<TxSlot*>* home = nullptr;
};

// Memory for a pool of equal buffers, registered when the provider wants local buffers
// registered.
struct Pool {
  std::byte* mem = nullptr;
  std::size_t bytes = 0;
  MemoryRegion mr;
  Pool() = default;
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() {
    mr = MemoryRegion{};
    std::free(mem);
  }
  Status allocate(Endpoint& ep, std::size_t n) {
    bytes = std::max<std::size_t>(round64(n), 64);
    mem = static_cast<std::byte*>(std::aligned_alloc(64, bytes));
    if (!mem) return {ErrorClass::other, "fabric transport: cannot allocate buffers"};
    if (!ep.local_mr()) return Status::ok();
    auto r = ep.register_memory(mem, bytes, FI_SEND | FI_RECV);
    if (!r) return r.status();
    mr = std::move(r.value());
    return Status::ok();
  }
};

class Impl;

// Counted under the engine lock, read from any thread (Engine::counters()).
struct Stats {
  std::atomic<std::uint64_t> credit{0}, probe{0}, probe_reply{0}, control{0}, no_credit{0},
      no_buffer{0}, eagain{0}, self{0}, rx_error{0};
};

class Impl final : public FabricTransport {
 public:
  Impl(const Api& api, std::unique_ptr<Endpoint> ep, int rank, int size, JobHosts hosts,
       std::chrono::milliseconds liveness)
      : api_(api), ep_(std::move(ep)), rank_(rank), size_(size), hosts_(std::move(hosts)),
        liveness_timeout_(liveness) {}

  ~Impl() override { shut_down(); }

  Status init();
  Status connect(const std::vector<std::string>& names) { return ep_->insert(names, addrs_); }

  // --- core::Transport ---
  std::string name() const override { return "fabric:" + ep_->provider(); }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::size_t max_payload() const override { return max_payload_; }
  // A network round trip (tens of microseconds on tcp): the agent stays awake that long
  // after a packet, polling the completion queue, so a conversation does not pay a
  // wake-up from the provider's wait object per packet.
  std::chrono::microseconds agent_linger() const override { return std::chrono::microseconds(250); }
  // A poll is the provider's progress: under tcp;ofi_rxm an epoll_wait system call, which
  // also clears the completion queue's wait signal, so the next completion writes it again
  // and a later poll reads it back. Polled on entry to every synchronization call (async
  // mode, agent parked), that cost lock-put-unlock about 0.1 (am) to 0.3 (direct) of a round
  // trip (docs/performance.md). Without a wait object (udp;ofi_rxd) a poll is still a call into
  // the provider's progress.
  bool cheap_poll() const override { return false; }
  // Without a wait object sleep() naps kNap, which epoll's millisecond timeout rounds up.
  std::chrono::microseconds nap() const override {
    if (ep_->wait_mode() != WaitMode::none) return std::chrono::microseconds(0);
    return std::chrono::ceil<std::chrono::milliseconds>(kNap);
  }
  bool try_send(int dst, const progress::PacketHeader& h,
                std::span<const std::byte> payload) override;
  int poll(progress::PacketSink& sink, int max_packets) override;
  bool has_incoming() const override { return incoming_.load(std::memory_order_seq_cst) > 0; }
  void awake_enter() override {}
  void awake_leave() override {}
  std::uint64_t sleep_prepare() override;
  void sleep(std::uint64_t token, std::chrono::microseconds timeout) override;
  void sleep_cancel() override;
  void wake_local() override;
  // Direct-path synchronization on fabric travels in control messages, which wake their
  // receiver through its completion queue: nothing to ring for another rank.
  void wake(int rank) override {
    if (rank == rank_) wake_local();
  }
  bool has_sleepers() const override;
  Status peer_status(int peer) const override;
  void add_counters(Counters& c) const override;

  // --- FabricTransport ---
  Endpoint& endpoint() override { return *ep_; }
  fi_addr_t address(int rank) const override { return addrs_[static_cast<std::size_t>(rank)]; }
  void set_control_sink(ControlSink* sink) override { control_sink_ = sink; }
  void send_control(int dst, std::span<const std::byte> msg) override;
  void report_failure(int peer, const std::string& why) override;
  std::string last_error() const override { return last_error_; }

 private:
  static void rx_done(Completion& c, std::size_t len, int err);
  static void tx_done(Completion& c, std::size_t len, int err);

  bool send_raw(int dst, Kind kind, std::span<const std::byte> a, std::span<const std::byte> b);
  void post(RxSlot& s);
  void drive_cq();
  void handle(const fi_cq_msg_entry& e);
  void read_error();
  void take_stash();
  void flush_control(int dst);
  void return_credits();
  void deliver_one(progress::PacketSink* sink, RxSlot& s);
  void probe(int peer);
  void reply_probes();
  void shut_down();
  std::size_t pending_incoming() const {
    return ready_.size() + self_queue_.size() + stash_size_.load(std::memory_order_seq_cst);
  }
  void update_incoming() { incoming_.store(pending_incoming(), std::memory_order_seq_cst); }

  const Api& api_;
  std::unique_ptr<Endpoint> ep_;
  int rank_;
  int size_;
  JobHosts hosts_;
  std::vector<fi_addr_t> addrs_;
  std::size_t max_payload_ = 0;
  std::size_t slot_bytes_ = 0;
  bool closing_ = false;

  // flow control and order, per peer
  std::vector<Credits> credits_;
  std::vector<std::uint32_t> send_seq_;
  std::vector<InOrder<RxSlot*>> order_;
  std::vector<std::deque<std::vector<std::byte>>> pending_control_;
  std::size_t pending_control_total_ = 0;

  // receiving
  Pool rx_pool_;
  std::vector<RxSlot> rx_slots_;
  std::vector<RxSlot*> repost_;
  std::deque<RxSlot*> ready_;
  struct SelfMessage {
    bool control;
    std::vector<std::byte> bytes;  // packet header and payload, or a control message
  };
  std::deque<SelfMessage> self_queue_;
  static constexpr std::size_t kSelfQueue = 64;
  ControlSink* control_sink_ = nullptr;

  // sending
  Pool small_pool_, large_pool_;
  std::vector<TxSlot> tx_slots_;
  std::vector<TxSlot*> small_free_, large_free_;
  std::size_t tx_inflight_ = 0;

  // waiting
  FdWaiter waiter_;
  std::atomic<int> sread_sleepers_{0};
  std::mutex stash_mu_;
  std::vector<fi_cq_msg_entry> stash_;
  std::atomic<std::size_t> stash_size_{0};
  std::atomic<std::size_t> incoming_{0};

  // failures
  std::vector<std::string> failed_;
  std::string last_error_;
  std::chrono::milliseconds liveness_timeout_;
  mutable std::vector<Liveness> liveness_;  // peers on other hosts
  std::vector<char> reply_due_;              // a probe from the peer awaits its reply
  std::size_t replies_due_ = 0;              // how many do (poll() skips the scan at 0)

  Stats stats_;
  std::atomic<std::uint64_t> reordered_{0};
};

// --- setup ----------------------------------------------------------------------------------

Status Impl::init() {
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
    s.done = &Impl::rx_done;
    s.owner = this;
  }

  const std::size_t tx_depth = info.tx_attr->size ? info.tx_attr->size : 256;
  const std::size_t n_small = std::min<std::size_t>(128, std::max<std::size_t>(1, tx_depth / 2));
  const std::size_t n_large = std::min<std::size_t>(8, std::max<std::size_t>(1, tx_depth / 8));
  RMA_TRY(small_pool_.allocate(*ep_, n_small * kSmallBuffer));
  RMA_TRY(large_pool_.allocate(*ep_, n_large * slot_bytes_));
  tx_slots_.resize(n_small + n_large);
  std::size_t k = 0;
  auto setup = [&](std::size_t count, std::vector<TxSlot*>& home, Pool* pool, std::size_t bytes) {
    for (std::size_t i = 0; i < count; ++i, ++k) {
      TxSlot& s = tx_slots_[k];
      s.done = &Impl::tx_done;
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

void Impl::post(RxSlot& s) {
  if (closing_) return;
  void* desc = rx_pool_.mr.desc();
  const ssize_t rc = fi_recv(ep_->ep(), s.buf, slot_bytes_, desc, FI_ADDR_UNSPEC, &s.fi);
  if (rc != 0) repost_.push_back(&s);  // the queue is full for now (EAGAIN): again later
}

void Impl::shut_down() {
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

// --- sending --------------------------------------------------------------------------------

bool Impl::send_raw(int dst, Kind kind, std::span<const std::byte> a,
                    std::span<const std::byte> b) {
  const auto d = static_cast<std::size_t>(dst);
  const std::size_t len = sizeof(WireHeader) + a.size() + b.size();
  Credits& cr = credits_[d];
  const bool needs_credit = kind != Kind::credit;
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

  const bool sequenced = kind == Kind::packet || kind == Kind::control;
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

bool Impl::try_send(int dst, const progress::PacketHeader& h, std::span<const std::byte> payload) {
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
  return send_raw(dst, Kind::packet, hb, payload);
}

void Impl::send_control(int dst, std::span<const std::byte> msg) {
  stats_.control.fetch_add(1, std::memory_order_relaxed);
  auto& q = pending_control_[static_cast<std::size_t>(dst)];
  if (dst != rank_ && !failed_[static_cast<std::size_t>(dst)].empty()) return;
  q.emplace_back(msg.begin(), msg.end());
  ++pending_control_total_;
  flush_control(dst);
}

void Impl::flush_control(int dst) {
  auto& q = pending_control_[static_cast<std::size_t>(dst)];
  while (!q.empty()) {
    if (dst == rank_) {
      // Our own control messages are delivered by poll() like anyone's, in order.
      if (self_queue_.size() >= kSelfQueue) return;
      self_queue_.push_back({true, q.front()});
      update_incoming();
    } else if (!send_raw(dst, Kind::control, q.front(), {})) {
      return;
    }
    q.pop_front();
    --pending_control_total_;
  }
}

void Impl::return_credits() {
  for (int p = 0; p < size_; ++p) {
    if (p == rank_ || !failed_[static_cast<std::size_t>(p)].empty()) continue;
    if (!credits_[static_cast<std::size_t>(p)].explicit_due()) continue;
    if (send_raw(p, Kind::credit, {}, {})) stats_.credit.fetch_add(1, std::memory_order_relaxed);
  }
}

void Impl::tx_done(Completion& c, std::size_t, int err) {
  auto& s = static_cast<TxSlot&>(c);
  auto* t = static_cast<Impl*>(s.owner);
  --t->tx_inflight_;
  s.home->push_back(&s);
  if (err && !(t->closing_ && err == FI_ECANCELED))
    t->report_failure(s.peer, "a send to it failed: " + t->last_error_);
}

// --- receiving ------------------------------------------------------------------------------

void Impl::rx_done(Completion& c, std::size_t len, int err) {
  auto& s = static_cast<RxSlot&>(c);
  auto* t = static_cast<Impl*>(s.owner);
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
    case Kind::credit:  // took no credit, owes none
      t->post(s);
      return;
    case Kind::probe:
      if (!t->reply_due_[src]) {  // answered from poll(), where sending may wait for a credit
        t->reply_due_[src] = 1;
        ++t->replies_due_;
      }
      t->post(s);
      cr.consumed();
      return;
    case Kind::probe_reply:
      t->post(s);
      cr.consumed();
      return;
    case Kind::packet:
    case Kind::control: {
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

void Impl::handle(const fi_cq_msg_entry& e) {
  if (!e.op_context) return;
  auto* c = reinterpret_cast<Completion*>(e.op_context);
  c->done(*c, e.len, 0);
}

void Impl::read_error() {
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

void Impl::drive_cq() {
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
void Impl::take_stash() {
  std::vector<fi_cq_msg_entry> mine;
  {
    std::lock_guard g(stash_mu_);
    if (stash_.empty()) return;
    mine.swap(stash_);
    stash_size_.store(0, std::memory_order_seq_cst);
  }
  for (const auto& e : mine) handle(e);
}

void Impl::deliver_one(progress::PacketSink* sink, RxSlot& s) {
  const std::byte* body = s.buf + sizeof(WireHeader);
  const std::size_t body_len = s.len - sizeof(WireHeader);
  if (s.kind == Kind::packet) {
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

int Impl::poll(progress::PacketSink& sink, int max_packets) {
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

// sleep_cancel() gets no token: the thread that prepared remembers its slot.
thread_local std::pair<const void*, std::uint64_t> t_sleep_slot{nullptr, 0};

std::uint64_t Impl::sleep_prepare() {
  if (ep_->wait_mode() == WaitMode::sread) {
    sread_sleepers_.fetch_add(1, std::memory_order_seq_cst);
    return 0;
  }
  const std::uint64_t token = waiter_.prepare();
  t_sleep_slot = {this, token};
  return token;
}

void Impl::sleep_cancel() {
  if (ep_->wait_mode() == WaitMode::sread) {
    sread_sleepers_.fetch_sub(1, std::memory_order_seq_cst);
    return;
  }
  if (t_sleep_slot.first == this) waiter_.cancel(t_sleep_slot.second);
  t_sleep_slot = {nullptr, 0};
}

void Impl::sleep(std::uint64_t token, std::chrono::microseconds timeout) {
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

void Impl::wake_local() {
  if (ep_->wait_mode() == WaitMode::sread)
    fi_cq_signal(ep_->cq());
  else
    waiter_.wake_all();
}

bool Impl::has_sleepers() const {
  if (ep_->wait_mode() == WaitMode::sread)
    return sread_sleepers_.load(std::memory_order_seq_cst) > 0;
  return waiter_.has_sleepers();
}

// --- failures -------------------------------------------------------------------------------

void Impl::report_failure(int peer, const std::string& why) {
  if (peer < 0 || peer >= size_ || peer == rank_) return;
  auto& f = failed_[static_cast<std::size_t>(peer)];
  if (f.empty()) f = "rank " + std::to_string(peer) + " is unreachable: " + why;
}

// Runs where every sending call runs: under the engine lock.
Status Impl::peer_status(int peer) const {
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
      const_cast<Impl*>(this)->probe(peer);
      break;
    case Liveness::gone: {
      char quiet[32];
      std::snprintf(quiet, sizeof quiet, "%.1f", l.quiet_s(now));
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", static_cast<double>(l.timeout().count()) / 1000);
      const_cast<Impl*>(this)->report_failure(
          peer, std::string("nothing from it, and no reply to liveness probes, for ") + quiet +
                    " s (liveness timeout RMA_LIVENESS_S=" + limit + ")");
      return {ErrorClass::proc_failed, failed_[p]};
    }
  }
  return Status::ok();
}

void Impl::probe(int peer) {
  if (send_raw(peer, Kind::probe, {}, {})) stats_.probe.fetch_add(1, std::memory_order_relaxed);
}

void Impl::reply_probes() {
  for (int p = 0; p < size_ && replies_due_ > 0; ++p) {
    auto& due = reply_due_[static_cast<std::size_t>(p)];
    if (!due) continue;
    const bool gone = !failed_[static_cast<std::size_t>(p)].empty();
    if (gone || send_raw(p, Kind::probe_reply, {}, {})) {
      due = 0;
      --replies_due_;
      if (!gone) stats_.probe_reply.fetch_add(1, std::memory_order_relaxed);
    }
  }
}

void Impl::add_counters(Counters& c) const {
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

}  // namespace

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

  auto t = std::make_unique<Impl>(fi, std::move(ep.value()), boot.rank(), boot.size(),
                                  std::move(hosts.value()), liveness.value());
  RMA_TRY(t->init());
  auto names = exchange_names(boot, me.value());
  if (!names) return names.status();
  RMA_TRY(t->connect(names.value()));
  return std::unique_ptr<progress::Transport>(std::move(t));
}

}  // namespace rma::fabric
