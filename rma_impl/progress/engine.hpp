// engine.hpp — the progress engine of one rank: packet dispatch, ordered outgoing queues,
// counting, the progress contexts of the three progress modes, and the wait discipline.
//
// All protocol state of a rank is guarded by the engine's mutex. Library calls take it,
// queue work, and, when they must wait, call wait_until(), which polls, backs off (spin,
// then yield, then block on the transport's doorbell) and releases the mutex while it
// yields or sleeps so the progress agent can run. Packet handlers run with the mutex held
// and never block: a packet that does not fit is queued and leaves later, in order.
//
//   std::unique_lock lk(engine.mutex());
//   engine.send(peer, hdr);                                   // ordered per peer
//   RMA_TRY(engine.wait_until(lk, [&] { return acked; }, {.ctx = Ctx::rma_sync, ...}));
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "progress/call_tracker.hpp"
#include "progress/engine_mutex.hpp"
#include "progress/lazy_deque.hpp"
#include "progress/packet.hpp"
#include "progress/transport.hpp"
#include "rma/counters.hpp"
#include "rma/types.hpp"

namespace rma::progress {

// Where progress is being made: decides, in sync_only mode, whether RMA packets are handled
// now or kept for the next synchronization call.
enum class Ctx : std::uint8_t { any_call, rma_sync, agent };

// Told when a queued packet (or the last fragment of a stream) has left: local completion.
class SendDone {
 public:
  virtual void sent() = 0;

 protected:
  ~SendDone() = default;
};

struct WaitInfo {
  Ctx ctx = Ctx::any_call;
  std::string_view what;  // what the wait needs, for state dumps: "ack from 1"
  int peer = -2;          // the peer whose death ends the wait with PROC_FAILED (-2: any)
  // When set, the text for state dumps is describe(*this), built only once the wait lasts:
  // a short wait (most point-to-point messages) formats nothing and allocates nothing.
  std::string (*describe)(const WaitInfo&) = nullptr;
  int tag = 0;  // for describe
  std::string text() const { return describe ? describe(*this) : std::string(what); }
};

// Backoff of a waiting thread; environment variables RMA_SPIN_US, RMA_YIELD_US override.
// With more ranks than this process may run on cores (`ranks` > CPUs), spinning, yielding
// and timed wake-ups only take the cores from the ranks that have work: spin and yield
// shrink, and a parked agent and a sleeping wait wake up less often, the more so the more
// ranks share a core.
struct WaitTuning {
  std::chrono::microseconds spin{20};
  std::chrono::microseconds yield{200};
  std::chrono::microseconds sleep_slice{20000};
  std::chrono::microseconds agent_spin{10};
  std::chrono::microseconds park_check{100};
  static WaitTuning from_env(int ranks);
};

// Whether a library call polls the transport on entry (Engine::call_progress), on its own so
// that its table can be tested:
// - `sync_only`: synchronization calls only;
// - `calls`, and `async` while no agent runs: every call, so that a rank looping on calls
//   that need no wait (ops to itself, test) still serves its peers;
// - `async` with the agent parked: synchronization calls on a window that moves packets (the
//   am path; on fabric the direct path too, whose synchronization travels in control
//   messages), so the application thread makes its own progress and the agent stays parked
//   instead of taking packets and the engine lock from under it; paced (EntryPolls): a call
//   polls only after two such calls in a row found no application poll since, so a
//   lock-put-unlock, whose unlock waits and polls there, polls in neither lock nor unlock
//   (each poll on that path is on the round trip's critical path). Not a direct
//   shm window's lock and unlock: they need no packets, and the poll and the engine lock
//   cost them more than the access itself (measured: lock-put-unlock 8 B 0.15 -> 0.21 us, and
//   an agent kept parked wakes every park check, 1 MiB 23 -> 26.5 us). And not over a
//   transport whose poll is costly (Transport::cheap_poll): there the calls that wait poll
//   in their wait loops, and what does not wait is left to the agent, which leaves its
//   parking when the application thread stops polling (Engine::Agent::park);
// - `async` with the agent running: none; the agent polls.
struct CallPollState {
  ProgressMode mode;
  bool agent_running;
  bool agent_parked;
  bool cheap_poll;  // Transport::cheap_poll
};
enum class CallPoll { no, yes, paced };
constexpr CallPoll call_polls(const CallPollState& s, bool sync_call, bool packet_window) {
  if (s.mode == ProgressMode::sync_only) return sync_call ? CallPoll::yes : CallPoll::no;
  if (!s.agent_running) return CallPoll::yes;
  return sync_call && packet_window && s.cheap_poll && s.agent_parked ? CallPoll::paced
                                                                      : CallPoll::no;
}

// The pacing of CallPoll::paced. In an epoch loop the poll on entry mostly found nothing
// (measured, shm am: the origin's instructions per lock-put-unlock 2857 -> 2596, the figures
// 3-5% lower, docs/performance.md), while a thread looping on calls that neither wait nor
// poll inside still polls every third call and keeps serving its peers. The price: packets
// that arrive just before a rank leaves such a loop to compute wait for the agent to leave
// its parking (two park intervals), where the skipped poll would have handled them.
class EntryPolls {
 public:
  static constexpr unsigned kSkips = 2;
  // `polls`: how often application threads have polled so far (Engine::app_polls_).
  // True: this call polls.
  bool due(std::uint64_t polls) {
    unsigned skipped = skipped_.load(std::memory_order_relaxed);
    if (polls != seen_.load(std::memory_order_relaxed)) {
      seen_.store(polls, std::memory_order_relaxed);
      skipped = 0;
    }
    if (skipped < kSkips) {
      skipped_.store(skipped + 1, std::memory_order_relaxed);
      return false;
    }
    return true;
  }

 private:
  // Atomic because calls ask before they take the engine lock; two application threads
  // asking at once can only move a poll by a call.
  std::atomic<std::uint64_t> seen_{0};
  std::atomic<unsigned> skipped_{0};
};

class Engine final : public PacketSink {
 public:
  using Handler = std::function<void(int src, const PacketHeader&, std::span<const std::byte>)>;

  Engine(std::unique_ptr<Transport> transport, ProgressMode mode, CallTracker& calls);
  ~Engine();

  Transport& transport() { return *transport_; }
  EngineMutex& mutex() { return mu_; }
  ProgressMode mode() const { return mode_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  std::size_t max_payload() const { return max_payload_; }
  CallTracker& calls() { return calls_; }

  void on(PacketType t, Handler h);

  // Sending (mutex held). Packets to one destination leave in the order given.
  // Copies `payload` if the packet has to wait.
  void send(int dst, const PacketHeader& h, std::span<const std::byte> payload = {});
  // The payload stays valid until done->sent() (immediately if it fits now).
  void send_ref(int dst, const PacketHeader& h, std::span<const std::byte> payload, SendDone* done);
  // Sends `data` as `data` packets of at most max_payload() bytes each; every fragment
  // carries `h` with aux = its offset and count = its length. Single copy, when the
  // transport can reach peers' memory (Transport::single_copy_min) and `data` is that large:
  // - with `to` (where the receiver's cts said the data goes, in_place_address), the data
  //   is written there at once and one packet says so; from three times the single-copy
  //   size (six where this rank maps that memory: shared_copy_split), the receiver copies
  //   the last third out itself meanwhile (write_in_place);
  // - else, if the receiver named its destination (kBulkInPlace in h.cookie, the bulk id),
  //   one packet offers `data` in place and the receiver copies it out itself; done->sent()
  //   then waits for its answer, and so do the packets queued to `dst` after it, which keeps
  //   them behind the data should the receiver refuse and fragments go after all.
  // A refused copy (kernel policy: ptrace permission, a container) means fragments to that
  // peer from then on.
  void send_stream(int dst, const PacketHeader& h, std::span<const std::byte> data, SendDone* done,
                   std::uint64_t to = 0);
  // What a receiver puts in its cts so that the sender may write `dest` itself (0: it may
  // not, the transport cannot reach peers' memory).
  std::uint64_t in_place_address(const std::byte* dest) const {
    return single_copy_min_ ? reinterpret_cast<std::uint64_t>(dest) : 0;
  }
  // Where the copy of a large transfer is split between the two ranks (`bytes`: not split):
  // from three times the single-copy size, about the first two thirds, in whole pages, go
  // to the rank that copies against the window's memory (the origin of a put or get, at
  // `address` of `peer`), the rest to the other, which copies from or into memory the
  // kernel pins in 4 KiB pages (docs/protocol.md). Where this rank maps that window memory
  // its part is a memcpy, and sharing breaks even only at about six times the single-copy
  // size; two thirds is still its fastest share at 1 MiB, level with 3/4 at 256 KiB (1/2 to
  // 11/12 measured, docs/performance-history.md). Too small for a page on either side, it
  // is not split.
  std::size_t shared_copy_split(std::size_t bytes, int peer, std::uint64_t address) const {
    constexpr std::size_t kPage = 4096;
    if (!single_copy_min_) return bytes;
    const std::size_t from = transport_->maps_peer(peer, address, bytes) ? 6 : 3;
    if (bytes < from * single_copy_min_) return bytes;
    const std::size_t split = bytes / 3 * 2 & ~(kPage - 1);
    return split == 0 || split >= bytes ? bytes : split;
  }
  // A single copy with `peer` failed with errno `err`: said once per process, on stderr.
  void single_copy_refused(int peer, int err) const;
  // The receiver's answer to an offer in place of transfer `id` from `dst` (bulk.cpp):
  // err 0 when it copied the bytes, else the errno that refused the copy.
  void answer_in_place(int dst, std::uint64_t id, int err);
  // The receiver's first answer to a large offer: it copies the bytes before `split` itself,
  // the sender writes the rest to `address` (bulk.cpp).
  void answer_split(int dst, std::uint64_t id, std::uint64_t split, std::uint64_t address);

  // One round of progress in context `ctx` (mutex held); true if anything happened.
  bool progress(Ctx ctx);
  // The poll a library call makes on entry, mutex held, once wants_call_progress said so.
  void call_progress();
  // Whether this call polls on entry (call_polls, above).
  [[gnu::always_inline]] bool wants_call_progress(bool sync_call, bool packet_window) {
    const CallPoll p = call_polls({.mode = mode_,
                                   .agent_running = agent_on_.load(std::memory_order_relaxed),
                                   .agent_parked = agent_parked_.load(std::memory_order_relaxed),
                                   .cheap_poll = cheap_poll_},
                                  sync_call, packet_window);
    if (p != CallPoll::paced) return p == CallPoll::yes;
    return paced_poll_due();
  }

  // Waits until pred() (called with the mutex held) is true. PROC_FAILED if the peer named
  // in `why` (or any peer, with peer = -2) is known dead. pred() may be called again after it
  // returned true: one with side effects must remember that it succeeded.
  template <class Pred>
  Status wait_until(EngineLock& lk, Pred&& pred, const WaitInfo& why);

  // Counters (any thread).
  Counters counters() const;
  Counters window_counters(std::uint32_t win) const;
  // Inline: the direct path counts every op and lock word it touches, and a call out of
  // line cost each about ten instructions more than the two increments themselves.
  void count_direct(std::uint32_t win, DirectOp op, std::uint64_t n = 1) {
    bump_counter(direct_[static_cast<std::size_t>(index(op))], n);
    if (win < kMaxCountedWindows)
      bump_counter((*win_counts_)[win].direct[static_cast<std::size_t>(index(op))], n);
  }
  // am protocol: one epoch (per target) whose ops went ahead of the lock grant or the post
  // (held), or that asked first.
  void count_epoch(bool held);
  // A derived-type op on the am path: its type's description went along (bytes > 0), or
  // the target held the type already (a cache hit).
  void count_layout(std::size_t description_bytes);

  // The asynchronous progress agent (async mode only); idempotent.
  void start_agent();
  void stop_agent();
  bool agent_running() const { return agent_on_.load(std::memory_order_relaxed); }

 private:
  struct OutItem {
    PacketHeader h;
    std::span<const std::byte> data;
    std::vector<std::byte> copy;  // owned payload when the caller's could not be kept
    SendDone* done = nullptr;
    bool stream = false;
    bool in_place = false;  // a stream to offer in place (send_stream), until answered
    bool offered = false;   // its offer has left; it waits at the queue's front for the answer
    bool copied = false;    // the receiver copied it in place: only `done` is left to tell
    bool answer = false;    // an answer to a peer's offer, queued ahead of our own offer
    std::size_t offset = 0;
    std::size_t split = 0;  // the receiver copies up to here itself; the rest is written
  };
  struct Stashed {
    int src;
    PacketHeader h;
    std::vector<std::byte> payload;
    std::uint32_t trace_seq = 0;  // --trace: the packet's number from src, its arrival
    std::int64_t trace_arrived = 0;
  };
  class Agent;

  void deliver(int src, const PacketHeader& h, std::span<const std::byte> payload) override;
  void dispatch(int src, const PacketHeader& h, std::span<const std::byte> payload);
  // --trace (rma/trace.hpp): packets numbered per peer and direction, so that the ranks'
  // records pair up; called only when tracing is on.
  void trace_sent(int dst, const PacketHeader& h, std::size_t bytes);
  std::uint32_t trace_arrived(int src, const PacketHeader& h, std::size_t bytes, bool kept,
                              std::int64_t& at);
  void trace_handled(int src, const PacketHeader& h, std::size_t bytes, std::uint32_t seq,
                     std::int64_t arrived);
  bool transmit(int dst, const PacketHeader& h, std::span<const std::byte> payload);
  bool drain_out();
  bool drain_one(int dst);
  void enqueue(int dst, OutItem item);
  bool offer_in_place(int dst, OutItem& it);
  void write_in_place(int dst, const PacketHeader& h, std::span<const std::byte> data,
                      SendDone* done, std::uint64_t to);
  void on_in_place_answer(int src, const PacketHeader& h, std::span<const std::byte> payload);
  void on_split(int src, OutItem& it, const PacketHeader& h, std::span<const std::byte> payload);
  void send_answer(int dst, const PacketHeader& h, std::span<const std::byte> payload);
  void queue_answer(int dst, OutItem item);
  // Whether packets wait for room at a receiver (and not only behind an offer in place,
  // whose answer comes as a packet and rings): then waiting threads nap and retry.
  bool waits_for_room() const {
    return out_pending_.load(std::memory_order_relaxed) >
           out_behind_offers_.load(std::memory_order_relaxed);
  }
  bool handles_rma_now() const;
  [[gnu::noinline]] bool handle_stash();  // sync_only: what arrived outside a sync call
  Status wait_failure(const WaitInfo& why) const;
  // Where the next all-peers liveness check starts: each check asks a few peers, not all.
  mutable int liveness_cursor_ = 0;
  void count_sent(const PacketHeader& h, std::size_t bytes);

  std::unique_ptr<Transport> transport_;
  ProgressMode mode_;
  CallTracker& calls_;
  int rank_;
  int size_;
  std::size_t max_payload_;
  const bool cheap_poll_;
  WaitTuning tuning_;
  EngineMutex mu_;

  std::array<Handler, packet_type_count> handlers_;
  std::vector<LazyDeque<OutItem>> out_;  // per destination; most never need one
  // Packets queued for lack of room; atomic: the agent reads it without the lock.
  std::atomic<std::size_t> out_pending_{0};
  // Of those, the ones in queues whose front is an offer in place waiting for its answer.
  std::atomic<std::size_t> out_behind_offers_{0};
  const std::size_t single_copy_min_;       // Transport::single_copy_min (0: never)
  std::vector<std::uint8_t> in_place_off_;  // per peer: it refused a copy, fragments only
  std::vector<std::uint8_t> offer_out_;     // per peer: our offer to it waits for the answer
  std::deque<Stashed> stash_;
  std::vector<std::uint32_t> trace_tx_, trace_rx_;  // --trace: packets per peer so far
  Ctx ctx_ = Ctx::any_call;

  // Counters are only ever updated with the engine lock held, or by the one application
  // thread on a path that takes none: a relaxed load and store suffice (no locked
  // instruction on the hot path); other threads only read them.
  static void bump_counter(std::atomic<std::uint64_t>& c, std::uint64_t n) {
    c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  std::array<std::atomic<std::uint64_t>, packet_type_count> sent_{};
  std::array<std::atomic<std::uint64_t>, packet_type_count> bytes_{};
  std::array<std::atomic<std::uint64_t>, direct_op_count> direct_{};
  std::atomic<std::uint64_t> held_epochs_{0}, asked_epochs_{0};
  std::atomic<std::uint64_t> descriptions_{0}, description_bytes_{0}, type_cache_hits_{0};
  // Per-window RMA counts, indexed by window id (ids are small and never reused).
  static constexpr int kMaxCountedWindows = 256;
  struct WinCounts {
    std::array<std::atomic<std::uint64_t>, packet_type_count> sent{};
    std::array<std::atomic<std::uint64_t>, direct_op_count> direct{};
  };
  std::unique_ptr<std::array<WinCounts, kMaxCountedWindows>> win_counts_;

  std::unique_ptr<Agent> agent_;
  // Whether agent_ is set, for the calls that ask before they take the engine lock
  // (wants_call_progress) while another thread may be creating a window (start_agent).
  std::atomic<bool> agent_on_{false};
  std::atomic<bool> app_polling_{false};  // the application thread is in a wait loop
  // The application thread is inside a wait loop (polling or asleep in the transport): it
  // makes its own progress, and the agent parks rather than compete with it for the core
  // and the completion queue.
  std::atomic<bool> app_waiting_{false};
  // Wait loops ended so far (written by the application thread only): the agent leaves its
  // parking only once the application thread has stayed out of library waits for a while.
  std::atomic<std::uint64_t> app_waits_{0};
  // The agent is parked; polls the application thread made so far (async mode: on a call's
  // entry, in test(), in wait loops): a parked agent stays parked while these go up, as it
  // does while the thread waits.
  std::atomic<bool> agent_parked_{false};
  std::atomic<std::uint64_t> app_polls_{0};
  EntryPolls entry_polls_;
  std::mutex park_mu_;
  std::condition_variable park_cv_;

  // Out of line: only the paced case pays for a call; the rule every library call inlines
  // (wants_call_progress) stays small.
  bool paced_poll_due();

  friend class WaitLoop;
};

// The state machine behind wait_until: spin, then yield, then block; kept out of the
// template so its policy lives in one place (engine_wait.cpp).
class WaitLoop {
 public:
  enum class Next { again, sleep, fail };
  WaitLoop(Engine& e, EngineLock& lk, const WaitInfo& why);
  ~WaitLoop();
  // One step: progress, then back off if nothing happened. `sleep` when it is time to
  // block, `fail` to stop waiting with status() (a dead peer).
  Next step();
  // Blocking, in two halves so that the caller re-checks its condition in between: after
  // prepare_sleep() this rank counts as asleep (senders and peers changing shared words
  // ring it), so a change the check misses cannot be missed by the sleep.
  std::uint64_t prepare_sleep();
  void sleep(std::uint64_t token);
  void cancel_sleep();
  const Status& status() const { return status_; }

 private:
  static constexpr unsigned kPollOnlySteps = 256;
  static constexpr unsigned kStepsWithoutPause = 64;
  Engine& e_;
  EngineLock& lk_;
  const WaitInfo& why_;
  // Registered with the transport as polling (awake_enter): only once the wait has polled
  // kStepsWithoutPause times for nothing (see be_awake()).
  void be_awake();
  unsigned idle_steps_ = 0;
  // Silent traffic (Transport::silent_traffic) as read when this wait's idle clock started;
  // a later reading that differs is traffic. After it, sleeps come in slices that start at a
  // twentieth of the tuning's sleep slice (at least kFirstQuietSlice) and double up to it: a
  // sleeper that silent accesses reach mid-sleep costs each of them a wake-up until its slice
  // ends, so the slowed stretch stays within about the quiet time before it, while an
  // oversubscribed node's long slices still wake little. Zero: the whole slice.
  std::uint64_t silent_seen_ = 0;
  static constexpr std::chrono::microseconds kFirstQuietSlice{1000};
  std::chrono::microseconds quiet_slice_{0};
  bool awake_ = false;
  bool marked_blocked_ = false;
  std::chrono::steady_clock::time_point idle_since_;
  std::chrono::steady_clock::time_point last_check_;
  Status status_;
};

template <class Pred>
Status Engine::wait_until(EngineLock& lk, Pred&& pred, const WaitInfo& why) {
  if (pred()) return Status::ok();
  WaitLoop loop(*this, lk, why);
  // pred() was false a moment ago and nothing has happened since: poll first. (Asking it
  // again here cost a wait whose answer is one poll away a predicate call: an unlock's
  // closing step, 40-60 instructions on the am path.)
  do {
    switch (loop.step()) {
      case WaitLoop::Next::again:
        break;
      case WaitLoop::Next::fail:
        return loop.status();
      case WaitLoop::Next::sleep: {
        const std::uint64_t token = loop.prepare_sleep();
        if (pred() || transport_->has_incoming())
          loop.cancel_sleep();
        else
          loop.sleep(token);
        break;
      }
    }
  } while (!pred());
  return Status::ok();
}

}  // namespace rma::progress
