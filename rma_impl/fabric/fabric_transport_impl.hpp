// fabric_transport_impl.hpp — inside the fabric transport (fabric_transport.hpp says what it
// does): the wire header in front of every message, the send and receive buffers, and the
// transport class itself, shared by the files that implement it: fabric_transport.cpp (setup,
// failure detection, counters), fabric_transport_send.cpp (sending, credits, control
// messages) and fabric_transport_poll.cpp (completions, receiving, waiting). Only those
// include it.
#pragma once

#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "fabric/fabric_bootstrap.hpp"
#include "fabric/fabric_endpoint.hpp"
#include "fabric/fabric_flow.hpp"
#include "fabric/fabric_liveness.hpp"
#include "fabric/fabric_transport.hpp"
#include "fabric/fabric_waiter.hpp"

namespace rma::fabric {

using Clock = std::chrono::steady_clock;

// A probe asks the peer for a sign of life, answered by a probe_reply (fabric_liveness.hpp);
// both take a credit, like packets.
enum class MsgKind : std::uint8_t {
  packet = 0,
  control = 1,
  credit = 2,
  probe = 3,
  probe_reply = 4
};

// In front of every message. `seq` orders packets and control messages per sender;
// `credits` returns receive credits to the message's receiver.
struct WireHeader {
  std::uint32_t seq;
  std::uint16_t src;
  MsgKind kind;
  std::uint8_t credits;
};
static_assert(sizeof(WireHeader) == 8);
constexpr std::size_t kPacketHeaderBytes = sizeof(WireHeader) + sizeof(progress::PacketHeader);
// A sleep without a wait object: a nap this long (nap() gives what it really lasts).
constexpr auto kNap = std::chrono::microseconds(500);
constexpr std::size_t kSmallBuffer = 1024;

inline std::size_t round64(std::size_t n) {
  return (n + 63) & ~std::size_t{63};
}

struct RxSlot : Completion {
  std::byte* buf = nullptr;
  std::size_t len = 0;
  MsgKind kind = MsgKind::packet;
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
struct BufferPool {
  std::byte* mem = nullptr;
  std::size_t bytes = 0;
  MemoryRegion mr;
  BufferPool() = default;
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;
  ~BufferPool() {
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

// Counted under the engine lock, read from any thread (Engine::counters()).
struct TransportStats {
  std::atomic<std::uint64_t> credit{0}, probe{0}, probe_reply{0}, control{0}, no_credit{0},
      no_buffer{0}, eagain{0}, self{0}, rx_error{0};
};

class TransportImpl final : public FabricTransport {
 public:
  TransportImpl(const Api& api, std::unique_ptr<Endpoint> ep, int rank, int size, JobHosts hosts,
                std::chrono::milliseconds liveness)
      : api_(api),
        ep_(std::move(ep)),
        rank_(rank),
        size_(size),
        hosts_(std::move(hosts)),
        liveness_timeout_(liveness) {}

  ~TransportImpl() override { shut_down(); }

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
  // trip (docs/performance.md). Without a descriptor (udp;ofi_rxd, shm) a poll is still a call
  // into the provider's progress.
  bool cheap_poll() const override { return false; }
  // Without a wait object sleep() naps kNap, which epoll's millisecond timeout rounds up.
  std::chrono::microseconds nap() const override {
    if (ep_->wait_mode() != WaitMode::none) return std::chrono::microseconds(0);
    return std::chrono::ceil<std::chrono::milliseconds>(kNap);
  }
  std::uint64_t silent_traffic() const override { return ep_->remote_accesses(); }
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

  bool send_raw(int dst, MsgKind kind, std::span<const std::byte> a, std::span<const std::byte> b);
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
  BufferPool rx_pool_;
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
  BufferPool small_pool_, large_pool_;
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
  std::vector<char> reply_due_;             // a probe from the peer awaits its reply
  std::size_t replies_due_ = 0;             // how many do (poll() skips the scan at 0)

  TransportStats stats_;
  std::atomic<std::uint64_t> reordered_{0};
};

}  // namespace rma::fabric
