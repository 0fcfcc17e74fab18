// transport.hpp — what the core needs from a backend's transport: an ordered, reliable packet
// channel to every rank (itself included) and a way for an idle thread to block.
//
// try_send() copies the packet out before returning true (so a packet is locally complete
// when it returns) and returns false when the channel has no room: the engine queues the
// packet and tries again after progress, so no send ever blocks inside packet handling.
//
// Waking: a thread that is actively polling registers with awake_enter(); a sender rings the
// destination's doorbell only when nobody there is awake and somebody sleeps, so polling
// ranks receive without system calls and idle ranks block instead of spinning.
#pragma once

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "progress/packet.hpp"
#include "rma/counters.hpp"
#include "rma/status.hpp"

namespace rma::progress {

class PacketSink {
 public:
  // `payload` is only valid during the call.
  virtual void deliver(int src, const PacketHeader& h, std::span<const std::byte> payload) = 0;

 protected:
  ~PacketSink() = default;
};

class Transport {
 public:
  virtual ~Transport() = default;

  virtual std::string name() const = 0;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Largest payload one packet may carry; a multiple of 8.
  virtual std::size_t max_payload() const = 0;

  virtual bool try_send(int dst, const PacketHeader& h, std::span<const std::byte> payload) = 0;
  // Delivers at most `max_packets` received packets; returns how many.
  virtual int poll(PacketSink& sink, int max_packets) = 0;
  // Anything waiting to be polled? Callable from any thread of the rank.
  virtual bool has_incoming() const = 0;

  // A thread of this rank starts / stops polling actively.
  virtual void awake_enter() = 0;
  virtual void awake_leave() = 0;
  // Blocking: prepare (registers as a sleeper, returns a token), then sleep or cancel.
  virtual std::uint64_t sleep_prepare() = 0;
  virtual void sleep(std::uint64_t token, std::chrono::microseconds timeout) = 0;
  virtual void sleep_cancel() = 0;
  // Wakes this rank's sleeping threads (e.g. the agent telling the main thread).
  virtual void wake_local() = 0;
  // Wakes `rank`'s sleeping threads if nobody there is polling: after changing a shared word
  // that rank may be waiting on (direct-path synchronization).
  virtual void wake(int rank) = 0;
  // Sleepers of this rank other than the caller (who must not be registered).
  virtual bool has_sleepers() const = 0;

  // How long the progress agent keeps polling after it handled something, before it sleeps:
  // about one round trip, so the next packet of a conversation finds it awake. A transport
  // whose has_incoming() only learns of packets by polling (a completion queue) needs this
  // longer than one that can see them in shared memory.
  virtual std::chrono::microseconds agent_linger() const { return std::chrono::microseconds(10); }

  // How long sleep() lasts at least when the transport has nothing to block on and naps
  // instead (0: it blocks until a packet comes). A wait loop yields for longer than this
  // before it naps: were its yield phase shorter, one nap of a peer's would make this side
  // wait past it and nap too, and the two could keep napping through every exchange.
  virtual std::chrono::microseconds nap() const { return std::chrono::microseconds(0); }

  // How many times peers reached this rank's memory in a way poll() does not report (a
  // provider applying a remote write with no completion), counted since the start; 0 when
  // the transport counts none. A wait loop that sees it move counts that as traffic, so it
  // stays awake while such accesses flow instead of sleeping through each.
  virtual std::uint64_t silent_traffic() const { return 0; }

  // Whether a poll costs only a few loads when nothing came. In async mode, while the
  // progress agent is parked, a synchronization call on a packet window then polls on entry
  // (call_polls in engine.hpp); a transport whose poll drives a provider's progress says no,
  // and there such calls leave progress to wait loops and the agent.
  virtual bool cheap_poll() const { return true; }

  // Single-copy transfers (Engine::send_stream): the smallest transfer the receiver should
  // copy straight out of the sender's memory instead of out of fragments, or 0 when this
  // transport cannot reach a peer's memory (it must then always say 0).
  virtual std::size_t single_copy_min() const { return 0; }
  // Copies into `into` the bytes at address `addr` of rank `peer`'s process: 0, or the errno
  // of the refusal (EPERM, ENOSYS...), after which the sender streams fragments instead.
  virtual int read_peer(int peer, std::uint64_t addr, std::span<std::byte> into) {
    (void)peer, (void)addr, (void)into;
    return ENOSYS;
  }
  // The other way: copies `from` to address `addr` of rank `peer`'s process.
  virtual int write_peer(int peer, std::uint64_t addr, std::span<const std::byte> from) {
    (void)peer, (void)addr, (void)from;
    return ENOSYS;
  }
  // Whether this rank maps the `n` bytes at `addr` of `peer`'s process, so that a copy of
  // them is a memcpy here rather than a system call.
  virtual bool maps_peer(int peer, std::uint64_t addr, std::size_t n) const {
    (void)peer, (void)addr, (void)n;
    return false;
  }

  // PROC_FAILED naming the peer when the transport knows it is gone.
  virtual Status peer_status(int peer) const = 0;
  // What the transport adds under the packets (fragments, credits), by name.
  virtual void add_counters(Counters& c) const { (void)c; }
};

}  // namespace rma::progress
