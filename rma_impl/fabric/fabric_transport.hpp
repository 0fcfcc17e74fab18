// fabric_transport.hpp — the libfabric transport: the core's ordered, reliable packet channel
// over one RDM endpoint per rank, plus what the fabric direct path needs from it.
//
// Every message carries an 8-byte wire header (sequence number, source rank, kind, credits
// returned) before the core's packet. Order: per-sender sequence numbers; early messages wait
// in a bounded reorder buffer (fabric_flow.hpp). Flow control: receive buffers pre-posted
// for every peer, credits per peer returned piggybacked or in explicit credit messages
// (counted as transport traffic, `credit`). Sends are copied into a bounded pool of send
// buffers, each held until its completion; try_send() returns false when a credit or a
// buffer is missing, and the engine retries after progress. Messages to itself go through a bounded
// local queue. Waiting: see fabric_waiter.hpp (fd) or fi_cq_sread (providers without a
// descriptor); ranks on one host are pinned to the loopback interface. A peer is gone when
// its pid has exited (same host), a send to it fails, or, on another host, it answers
// nothing for the liveness timeout (probes and replies, fabric_liveness.hpp): the waits
// that need it end with PROC_FAILED.
//
//   auto t = rma::fabric::create_transport(boot, {.backend = "fabric", .provider = "tcp;ofi_rxm"});
//
// The direct path (fabric_rma.cpp) posts RMA operations on endpoint() with a Completion
// as context; their completions come back through poll() under the engine lock. Its
// synchronization messages travel as `control` messages on the same ordered channel and are
// handed to the ControlSink, not to the engine.
#pragma once

#include <rdma/fabric.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "progress/transport.hpp"
#include "rma/bootstrap.hpp"
#include "rma/runtime.hpp"

namespace rma::fabric {

class Endpoint;

// The context of one operation on the endpoint; `fi` must stay first (libfabric hands back
// its address). done() runs inside poll() with the engine lock held; `err` is 0 or a
// positive libfabric error number.
struct Completion {
  fi_context2 fi{};
  void (*done)(Completion& c, std::size_t len, int err) = nullptr;
  void* owner = nullptr;
  int peer = -1;
};

class ControlSink {
 public:
  // `msg` is only valid during the call.
  virtual void control(int src, std::span<const std::byte> msg) = 0;

 protected:
  ~ControlSink() = default;
};

class FabricTransport : public progress::Transport {
 public:
  // Largest control message.
  static constexpr std::size_t kMaxControl = 64;

  virtual Endpoint& endpoint() = 0;
  virtual fi_addr_t address(int rank) const = 0;
  virtual void set_control_sink(ControlSink* sink) = 0;
  // Queues a control message to `dst` (copied, in order with earlier control messages).
  virtual void send_control(int dst, std::span<const std::byte> msg) = 0;
  // A direct-path operation on `peer` failed with a provider error: the peer counts as gone.
  virtual void report_failure(int peer, const std::string& why) = 0;
  // The provider's text for the last failed completion.
  virtual std::string last_error() const = 0;
};

Result<std::unique_ptr<progress::Transport>> create_transport(bootstrap::Bootstrap& boot,
                                                              const RuntimeConfig& config);

// The largest packet payload for a job of `ranks` ranks: the same bound as the shm
// transport's rings, so the eager limit — and every message count — is the same on both.
std::size_t max_payload_for(int ranks);

}  // namespace rma::fabric
