// The progress engine: dispatch, ordered sending, the sync_only stash, counting and the
// asynchronous progress agent. How a thread waits (WaitLoop) is in engine_wait.cpp.
#include "progress/engine.hpp"

#include <sched.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "progress/cpu_relax.hpp"
#include "rma/trace.hpp"
#include "rma/types.hpp"

namespace rma::progress {
namespace {

using Clock = std::chrono::steady_clock;
// How long the agent naps when it cannot go on for now: its packets wait for room at a
// receiver (a wait loop in engine_wait.cpp naps as long), or packets wait for the lock a
// call holds (Agent::back_off).
constexpr auto kRoomNap = std::chrono::microseconds(50);
// A parked agent's check interval grows to at most this many times its first, and 50 ms.
constexpr int kParkBackoff = 16;
constexpr auto kParkLongest = std::chrono::microseconds(50000);

// A stream's fragments hold whole elements of every dtype, so a receiver that reduces
// fragment by fragment never starts inside one: their size is a multiple of the largest
// element (a 16-byte pair). The transports' payloads for 9 ranks and more are not.
constexpr std::size_t kLargestElement = size_of(Dtype::long_int);
std::size_t fragment_bytes(std::size_t max_payload) {
  return max_payload >= kLargestElement ? max_payload - max_payload % kLargestElement : max_payload;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// The agent: a thread that makes progress while the application thread is elsewhere. It
// polls while there is work, lingers about a round trip after the last packet, then sleeps
// on the transport's wait object; it parks while the application thread makes its own
// progress (docs/protocol.md, "Progress"), so the two never compete.

class Engine::Agent {
 public:
  explicit Agent(Engine& e) : e_(e), thread_([this] { run(); }) {}
  ~Agent() {
    stop_.store(true);
    e_.transport().wake_local();
    {
      std::lock_guard g(e_.park_mu_);
      e_.park_cv_.notify_one();
    }
    thread_.join();
  }

 private:
  void run() {
    Transport& t = e_.transport();
    unsigned missed = 0;  // turns in a row that found packets and the lock held
    while (!stop_.load(std::memory_order_relaxed)) {
      bool did = false;
      {
        std::unique_lock lk(e_.mu_, std::try_to_lock);
        if (!lk.owns_lock() && !e_.app_waiting_.load(std::memory_order_acquire) &&
            t.has_incoming()) {
          back_off(missed);
          continue;
        }
        missed = 0;
        if (lk.owns_lock()) did = e_.progress(Ctx::agent);
      }
      if (did) {
        // The application thread may be asleep waiting for what just happened.
        if (t.has_sleepers()) t.wake_local();
        // Follow-up packets often come at once (a request after a grant, the next epoch of
        // a loop): keep polling for about a round trip, unless the application thread is
        // polling anyway.
        if (!e_.app_polling_.load(std::memory_order_relaxed) &&
            !e_.app_waiting_.load(std::memory_order_relaxed))
          linger(t);
        continue;
      }
      if (e_.app_waiting_.load(std::memory_order_acquire)) {
        park();
        continue;
      }
      if (e_.waits_for_room()) {
        // Packets wait for room at a receiver, which rings nobody when it frees some: nap
        // instead of sleeping until a packet comes.
        std::this_thread::sleep_for(kRoomNap);
        continue;
      }
      std::uint64_t token = t.sleep_prepare();
      if (stop_.load() || t.has_incoming()) {
        t.sleep_cancel();
        continue;
      }
      t.sleep(token, std::chrono::milliseconds(100));
    }
  }

  // Packets wait and the application thread holds the lock in a call, outside any wait loop
  // (a wait loop would have parked the agent): it lets go when the call ends. Spin briefly,
  // then yield, then nap. Without this the agent went round its loop at full speed for as
  // long as the call lasted, a whole time slice when the holder was preempted on this core,
  // and each turn passed through the doorbell's sleep_prepare: a sleeper that senders saw
  // for a moment and rang for.
  static void back_off(unsigned& missed) {
    constexpr unsigned kSpins = 64, kYields = 64;
    if (missed == kSpins + kYields) {
      std::this_thread::sleep_for(kRoomNap);  // the count stops here: no overflow
      return;
    }
    if (++missed <= kSpins)
      cpu_relax();
    else
      sched_yield();
  }

  // Waits while the application thread is making its own progress: inside a wait loop, or
  // out of one for less than a check interval (between the calls of an epoch). It polls and
  // sleeps in the transport itself, and a second thread there only steals its completions
  // and its core (measured: lock-put-unlock two to three times slower with both awake).
  // Checks first after tuning_.park_check (100 us unless the node is oversubscribed) and
  // leaves once a whole interval passed with no wait loop ending and none running. Each
  // check that finds the application thread still busy doubles the interval, up to
  // kParkBackoff times the first (at most kParkLongest): every check is a timed wake-up
  // that takes the core from a spinning thread (measured, 2 ranks on 2 cores: 10,000
  // context switches a second per rank at a fixed 100 us, and fabric tcp;ofi_rxm
  // lock-put-unlock 1.3-1.4x a raw round trip against 1.08x with no agent). A rank that starts
  // computing has its agent back within two intervals of the longest (3.2 ms with the defaults).
  // Counting wait loops instead of reading the clock at the end of each keeps the clock off every
  // library call's path.
  void park() {
    std::unique_lock lk(e_.park_mu_);
    e_.agent_parked_.store(true, std::memory_order_relaxed);
    std::uint64_t seen = e_.app_waits_.load(std::memory_order_relaxed);
    std::uint64_t polls = e_.app_polls_.load(std::memory_order_relaxed);
    auto interval = e_.tuning_.park_check;
    const auto longest = std::max(e_.tuning_.park_check,
                                  std::min(e_.tuning_.park_check * kParkBackoff, kParkLongest));
    for (;;) {
      e_.park_cv_.wait_for(lk, interval, [&] { return stop_.load(); });
      interval = std::min(interval * 2, longest);
      if (stop_.load()) break;
      // Wait loops ended, or the application thread polled, since the last check: it serves
      // itself.
      const std::uint64_t waits = e_.app_waits_.load(std::memory_order_relaxed);
      const std::uint64_t now_polls = e_.app_polls_.load(std::memory_order_relaxed);
      if (!e_.app_waiting_.load(std::memory_order_acquire) && waits == seen && now_polls == polls)
        break;
      seen = waits;
      polls = now_polls;
    }
    e_.agent_parked_.store(false, std::memory_order_relaxed);
  }

  // Keeps polling for up to the linger time without sleeping, counting as awake so senders
  // need not ring: checks has_incoming() every turn and, since some transports only learn
  // of packets by polling, makes progress every few turns. Returns at the first packet
  // (the main loop handles it and lingers again) or when the application thread starts
  // polling itself.
  void linger(Transport& t) {
    t.awake_enter();
    const auto until = Clock::now() + std::max(e_.tuning_.agent_spin, t.agent_linger());
    for (unsigned i = 1;; ++i) {
      if (t.has_incoming() || stop_.load(std::memory_order_relaxed) ||
          e_.app_polling_.load(std::memory_order_relaxed))
        break;
      if ((i & 7) == 0) {
        std::unique_lock lk(e_.mu_, std::try_to_lock);
        if (lk.owns_lock() && e_.progress(Ctx::agent)) {
          lk.unlock();
          if (t.has_sleepers()) t.wake_local();
          break;
        }
      }
      cpu_relax();
      // No yield here: a yield hands the core to a computing application thread for a
      // whole time slice (milliseconds), which is what the agent exists to avoid.
      if ((i & 63) == 0 && Clock::now() >= until) break;
    }
    t.awake_leave();
  }

  Engine& e_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// ---------------------------------------------------------------------------------------

Engine::Engine(std::unique_ptr<Transport> transport, ProgressMode mode, CallTracker& calls)
    : transport_(std::move(transport)),
      mode_(mode),
      calls_(calls),
      rank_(transport_->rank()),
      size_(transport_->size()),
      max_payload_(transport_->max_payload()),
      cheap_poll_(transport_->cheap_poll()),
      tuning_(WaitTuning::from_env(size_)),
      out_(static_cast<std::size_t>(size_)),
      single_copy_min_(transport_->single_copy_min()),
      in_place_off_(static_cast<std::size_t>(size_), 0),
      offer_out_(static_cast<std::size_t>(size_), 0),
      win_counts_(std::make_unique<std::array<WinCounts, kMaxCountedWindows>>()) {
  if (trace::on()) {
    trace_tx_.assign(static_cast<std::size_t>(size_), 0);
    trace_rx_.assign(static_cast<std::size_t>(size_), 0);
  }
}

Engine::~Engine() {
  stop_agent();
}

void Engine::on(PacketType t, Handler h) {
  handlers_[index(t)] = std::move(h);
}

// Inline, like transmit(): every packet sent passes both, and as calls their frames cost
// more than their bodies (callgrind: some 20 instructions a packet).
[[gnu::always_inline]] inline void Engine::count_sent(const PacketHeader& h, std::size_t bytes) {
  bump_counter(sent_[index(h.type)], 1);
  bump_counter(bytes_[index(h.type)], bytes);
  if (class_of(h.type) == PacketClass::rma && h.win < kMaxCountedWindows)
    bump_counter((*win_counts_)[h.win].sent[index(h.type)], 1);
}

void Engine::count_epoch(bool held) {
  bump_counter(held ? held_epochs_ : asked_epochs_, 1);
}

void Engine::count_layout(std::size_t description_bytes) {
  if (description_bytes == 0) {
    bump_counter(type_cache_hits_, 1);
    return;
  }
  bump_counter(descriptions_, 1);
  bump_counter(description_bytes_, description_bytes);
}

[[gnu::always_inline]] inline bool Engine::transmit(int dst, const PacketHeader& h,
                                                    std::span<const std::byte> payload) {
  if (!transport_->try_send(dst, h, payload)) return false;
  count_sent(h, payload.size());
  if (trace::on()) [[unlikely]]
    trace_sent(dst, h, payload.size());
  return true;
}

// --- --trace: the one place packets are recorded (sent here, received in deliver) ------

namespace {
trace::Event packet_event(trace::EventKind kind, const PacketHeader& h, int rank, int peer,
                          std::uint32_t seq, std::size_t bytes, std::int64_t t0) {
  trace::Event e;
  e.kind = kind;
  e.packet_type = static_cast<std::uint8_t>(h.type);
  e.flags = h.flags;
  e.rank = rank;
  e.peer = peer;
  e.seq = seq;
  e.bytes = bytes;
  e.t0 = t0;
  return e;
}
}  // namespace

// The time is read just after the transport took the packet: a receiver polling on another
// core may handle it a few hundred nanoseconds "earlier" than that.
void Engine::trace_sent(int dst, const PacketHeader& h, std::size_t bytes) {
  // Not numbered from the start (enabled after this engine was made): not recorded.
  if (dst == rank_ || trace_tx_.empty()) return;
  trace::record(packet_event(trace::EventKind::sent, h, rank_, dst,
                             ++trace_tx_[static_cast<std::size_t>(dst)], bytes, trace::now_ns()));
}

std::uint32_t Engine::trace_arrived(int src, const PacketHeader& h, std::size_t bytes, bool kept,
                                    std::int64_t& at) {
  if (src == rank_ || trace_rx_.empty()) return 0;
  at = trace::now_ns();
  const std::uint32_t seq = ++trace_rx_[static_cast<std::size_t>(src)];
  if (kept) trace::record(packet_event(trace::EventKind::arrived, h, rank_, src, seq, bytes, at));
  return seq;
}

void Engine::trace_handled(int src, const PacketHeader& h, std::size_t bytes, std::uint32_t seq,
                           std::int64_t arrived) {
  if (seq == 0) return;
  trace::Event e = packet_event(trace::EventKind::handled, h, rank_, src, seq, bytes, arrived);
  e.t1 = trace::now_ns();
  trace::record(e);
}

void Engine::send(int dst, const PacketHeader& h, std::span<const std::byte> payload) {
  if (out_[static_cast<std::size_t>(dst)].empty() && transmit(dst, h, payload)) return;
  OutItem item;
  item.h = h;
  item.copy.assign(payload.begin(), payload.end());
  item.data = item.copy;
  enqueue(dst, std::move(item));
}

void Engine::send_ref(int dst, const PacketHeader& h, std::span<const std::byte> payload,
                      SendDone* done) {
  if (out_[static_cast<std::size_t>(dst)].empty() && transmit(dst, h, payload)) {
    if (done) done->sent();
    return;
  }
  OutItem item;
  item.h = h;
  item.data = payload;
  item.done = done;
  enqueue(dst, std::move(item));
}

void Engine::send_stream(int dst, const PacketHeader& h, std::span<const std::byte> data,
                         SendDone* done, std::uint64_t to) {
  const bool large = single_copy_min_ && data.size() >= single_copy_min_ &&
                     !in_place_off_[static_cast<std::size_t>(dst)];
  if (to && large) {
    write_in_place(dst, h, data, done, to);
    return;
  }
  OutItem item;
  item.h = h;
  item.h.type = PacketType::data;
  item.data = data;
  item.done = done;
  item.stream = true;
  item.in_place = large && !to && (h.cookie & kBulkInPlace);
  enqueue(dst, std::move(item));
  drain_one(dst);
}

// A large transfer whose receiver said where it goes. From three times the single-copy
// size (six through a mapping: shared_copy_split), the receiver's core copies the last
// third while this one writes the rest: the tail is offered in place first, so that both
// copies run at once. A third, because the receiver reads from this rank's memory, which
// the kernel pins page by page, and the sender writes into window memory in huge pages
// (core/memory.cpp) or through a mapping: measured at 1 MiB with system calls, halves took
// 11.5 us written and 22 us read. The head is written before anything queued
// after the cts could reach the receiver, and its news goes in order behind what is queued
// already, the offer included, so `done` comes once both parts are in.
void Engine::write_in_place(int dst, const PacketHeader& h, std::span<const std::byte> data,
                            SendDone* done, std::uint64_t to) {
  const std::size_t head =
      h.cookie & kBulkInPlace ? shared_copy_split(data.size(), dst, to) : data.size();
  OutItem item;
  item.h = h;
  item.h.type = PacketType::data;
  item.data = data;
  item.stream = true;
  if (head < data.size()) {
    item.offset = head;  // the tail, offered in place; fragments from `head` if refused
    item.in_place = true;
    enqueue(dst, item);
    drain_one(dst);
  }
  const int err = transport_->write_peer(dst, to, data.first(head));
  if (!err) {
    PacketHeader n = item.h;
    n.reserved0 = static_cast<std::uint8_t>(DataKind::written);
    n.aux = 0;
    n.count = head;
    if (head < data.size()) return send_ref(dst, n, {}, done);
    send(dst, n);
    if (done) done->sent();  // all of it is in the receiver's memory
    return;
  }
  in_place_off_[static_cast<std::size_t>(dst)] = 1;
  single_copy_refused(dst, err);
  item.data = data.first(head);  // the head in fragments, still behind the tail's offer
  item.offset = 0;
  item.in_place = false;
  item.done = done;
  enqueue(dst, std::move(item));
  drain_one(dst);
}

void Engine::single_copy_refused(int peer, int err) const {
  static std::atomic<bool> said{false};
  if (!said.exchange(true))
    std::fprintf(stderr,
                 "rma: rank %d cannot copy to or from rank %d's memory (%s): large transfers "
                 "between them go in fragments\n",
                 rank_, peer, std::strerror(err));
}

void Engine::enqueue(int dst, OutItem item) {
  if (offer_out_[static_cast<std::size_t>(dst)]) ++out_behind_offers_;
  out_[static_cast<std::size_t>(dst)].push_back(std::move(item));
  ++out_pending_;
}

// One packet instead of the fragments: the address of the bytes, which stay put until the
// answer (on_in_place_answer). The item keeps the queue's front until then.
bool Engine::offer_in_place(int dst, OutItem& it) {
  PacketHeader oh = it.h;
  oh.reserved0 = static_cast<std::uint8_t>(DataKind::in_place);
  oh.aux = it.offset;  // a tail whose head goes another way starts past it
  oh.count = it.data.size() - it.offset;
  const auto addr = reinterpret_cast<std::uint64_t>(it.data.data() + it.offset);
  if (!transmit(dst, oh, std::as_bytes(std::span(&addr, 1)))) return false;
  it.offered = true;
  offer_out_[static_cast<std::size_t>(dst)] = 1;
  out_behind_offers_ += out_[static_cast<std::size_t>(dst)].size();
  return true;
}

// An answer never waits behind an offer of our own to the same peer: two ranks offering to
// each other would each wait for the other's answer. It may pass queued packets: it only
// tells the sender about its own offer.
void Engine::answer_in_place(int dst, std::uint64_t id, int err) {
  PacketHeader h = make_header(PacketType::data);
  h.reserved0 = static_cast<std::uint8_t>(err ? DataKind::refused : DataKind::pulled);
  h.cookie = id;
  h.aux = static_cast<std::uint64_t>(err);
  send_answer(dst, h, {});
}

void Engine::answer_split(int dst, std::uint64_t id, std::uint64_t split, std::uint64_t address) {
  PacketHeader h = make_header(PacketType::data);
  h.reserved0 = static_cast<std::uint8_t>(DataKind::split);
  h.cookie = id;
  h.aux = split;
  send_answer(dst, h, std::as_bytes(std::span(&address, 1)));
}

// Answers pass what waits behind an offer of our own, but not each other: a split answer
// must reach the sender before the final one.
void Engine::send_answer(int dst, const PacketHeader& h, std::span<const std::byte> payload) {
  const auto& q = out_[static_cast<std::size_t>(dst)];
  if (!offer_out_[static_cast<std::size_t>(dst)]) return send(dst, h, payload);
  if ((q.empty() || !q.front().answer) && transmit(dst, h, payload)) return;
  OutItem item;
  item.h = h;
  item.copy.assign(payload.begin(), payload.end());
  item.data = item.copy;
  queue_answer(dst, std::move(item));
}

void Engine::queue_answer(int dst, OutItem item) {
  auto& q = out_[static_cast<std::size_t>(dst)];
  auto at = q.begin();
  while (at != q.end() && at->answer) ++at;
  item.answer = true;
  q.insert(at, std::move(item));
  ++out_pending_;
}

// The receiver copied the offered bytes (the stream is done: local completion), or refused:
// then this peer gets fragments from now on, this stream first, still ahead of what was
// queued after it.
void Engine::on_in_place_answer(int src, const PacketHeader& h,
                                std::span<const std::byte> payload) {
  const auto peer = static_cast<std::size_t>(src);
  if (!offer_out_[peer]) return;
  auto& q = out_[peer];
  auto it = q.begin();
  std::size_t ahead = 0;  // answers of ours queued in front of the offer
  for (; it != q.end() && it->answer; ++it) ++ahead;
  if (it == q.end() || !it->offered || it->h.cookie != h.cookie) return;
  if (h.reserved0 == static_cast<std::uint8_t>(DataKind::split)) {
    on_split(src, *it, h, payload);
    return;
  }
  offer_out_[peer] = 0;
  out_behind_offers_ -= q.size() - ahead;
  it->in_place = false;
  it->offered = false;
  if (h.reserved0 == static_cast<std::uint8_t>(DataKind::refused)) {
    in_place_off_[peer] = 1;
    if (it->split) it->data = it->data.first(it->split);  // the rest is in or on its way
  } else {
    it->copied = true;
  }
  drain_one(src);
}

// The receiver copies the offer's first part and asks for the rest at its address: written
// now, and the news (or, refused, the rest in fragments) goes ahead of the offer, which
// keeps its place until the final answer.
void Engine::on_split(int src, OutItem& it, const PacketHeader& h,
                      std::span<const std::byte> payload) {
  std::uint64_t address = 0;
  if (it.split || it.offset || h.aux == 0 || h.aux >= it.data.size() ||
      payload.size() < sizeof address)
    return;  // not what a conforming receiver asks
  std::memcpy(&address, payload.data(), sizeof address);
  it.split = h.aux;
  const std::span<const std::byte> rest = it.data.subspan(h.aux);
  OutItem out;
  out.h = it.h;
  if (const int err = transport_->write_peer(src, address, rest); !err) {
    out.h.reserved0 = static_cast<std::uint8_t>(DataKind::written);
    out.h.aux = h.aux;
    out.h.count = rest.size();
  } else {
    in_place_off_[static_cast<std::size_t>(src)] = 1;
    single_copy_refused(src, err);
    out.data = it.data;
    out.offset = h.aux;
    out.stream = true;
  }
  queue_answer(src, std::move(out));
  drain_one(src);
}

bool Engine::drain_one(int dst) {
  auto& q = out_[static_cast<std::size_t>(dst)];
  bool did = false;
  while (!q.empty()) {
    OutItem& it = q.front();
    if (it.in_place) {
      // Offered once, then kept in front until the receiver answers (on_in_place_answer).
      if (!it.offered && offer_in_place(dst, it)) did = true;
      return did;
    }
    if (it.copied) {
      // Nothing left to send: the receiver took the bytes itself.
    } else if (it.stream) {
      // Fragments of a large transfer: the ring (or bounce buffers) bound what is in flight.
      while (it.offset < it.data.size() || it.data.empty()) {
        std::size_t n = std::min(fragment_bytes(max_payload_), it.data.size() - it.offset);
        PacketHeader fh = it.h;
        fh.aux = it.offset;
        fh.count = n;
        if (!transmit(dst, fh, it.data.subspan(it.offset, n))) return did;
        did = true;
        it.offset += n;
        if (it.data.empty()) break;
      }
    } else {
      if (!transmit(dst, it.h, it.data)) return did;
      did = true;
    }
    SendDone* done = it.done;
    q.pop_front();
    --out_pending_;
    if (done) done->sent();
  }
  return did;
}

bool Engine::drain_out() {
  if (out_pending_ == 0) return false;
  bool did = false;
  for (int d = 0; d < size_; ++d)
    if (!out_[static_cast<std::size_t>(d)].empty()) did |= drain_one(d);
  return did;
}

bool Engine::handles_rma_now() const {
  return mode_ != ProgressMode::sync_only || ctx_ == Ctx::rma_sync;
}

void Engine::deliver(int src, const PacketHeader& h, std::span<const std::byte> payload) {
  // sync_only: RMA packets received outside a synchronization call wait, unprocessed,
  // for the next one; that is what makes the start/recv/complete case deadlock there.
  const bool keep = class_of(h.type) == PacketClass::rma && !handles_rma_now();
  if (trace::on()) [[unlikely]] {
    std::int64_t at = 0;
    const std::uint32_t seq = trace_arrived(src, h, payload.size(), keep, at);
    if (keep) {
      stash_.push_back({src, h, {payload.begin(), payload.end()}, seq, at});
      return;
    }
    trace_handled(src, h, payload.size(), seq, at);
    dispatch(src, h, payload);
    return;
  }
  if (keep) {
    stash_.push_back({src, h, {payload.begin(), payload.end()}});
    return;
  }
  dispatch(src, h, payload);
}

void Engine::dispatch(int src, const PacketHeader& h, std::span<const std::byte> payload) {
  if (h.type == PacketType::data && h.reserved0 >= static_cast<std::uint8_t>(DataKind::pulled))
      [[unlikely]] {
    // A kind past the last this engine knows is dropped: read as an answer it would end
    // a stream whose bytes never moved.
    if (h.reserved0 <= static_cast<std::uint8_t>(DataKind::split))
      on_in_place_answer(src, h, payload);
    return;
  }
  const Handler& fn = handlers_[index(h.type)];
  if (fn) fn(src, h, payload);
}

bool Engine::progress(Ctx ctx) {
  ctx_ = ctx;
  // A parked agent stays parked while the application thread keeps polling (Agent::park).
  if (ctx != Ctx::agent && agent_)
    app_polls_.store(app_polls_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  bool did = false;
  if (!stash_.empty() && handles_rma_now()) [[unlikely]]
    did = handle_stash();
  // Most rounds find nothing queued to send: look before calling.
  if (out_pending_.load(std::memory_order_relaxed) != 0) did |= drain_out();
  did |= transport_->poll(*this, 64) > 0;
  if (out_pending_.load(std::memory_order_relaxed) != 0) did |= drain_out();
  ctx_ = Ctx::any_call;
  return did;
}

// Out of line, so that progress(), which every wait loop calls at every poll, keeps a
// small frame for its common case: nothing stashed.
bool Engine::handle_stash() {
  while (!stash_.empty()) {
    Stashed s = std::move(stash_.front());
    stash_.pop_front();
    if (trace::on()) [[unlikely]]
      trace_handled(s.src, s.h, s.payload.size(), s.trace_seq, s.trace_arrived);
    dispatch(s.src, s.h, s.payload);
  }
  return true;
}

bool Engine::paced_poll_due() {
  return entry_polls_.due(app_polls_.load(std::memory_order_relaxed));
}

void Engine::call_progress() {
  progress(mode_ == ProgressMode::sync_only ? Ctx::rma_sync : Ctx::any_call);
}

Counters Engine::counters() const {
  Counters c;
  for (int i = 0; i < packet_type_count; ++i) {
    c.sent[i] = sent_[i].load(std::memory_order_relaxed);
    c.bytes[i] = bytes_[i].load(std::memory_order_relaxed);
  }
  for (int i = 0; i < direct_op_count; ++i)
    c.direct[i] = direct_[i].load(std::memory_order_relaxed);
  if (auto n = held_epochs_.load(std::memory_order_relaxed)) c.protocol["held_epochs"] = n;
  if (auto n = asked_epochs_.load(std::memory_order_relaxed)) c.protocol["asked_epochs"] = n;
  if (auto n = descriptions_.load(std::memory_order_relaxed)) c.datatypes["descriptions"] = n;
  if (auto n = description_bytes_.load(std::memory_order_relaxed))
    c.datatypes["description_bytes"] = n;
  if (auto n = type_cache_hits_.load(std::memory_order_relaxed)) c.datatypes["cache_hits"] = n;
  transport_->add_counters(c);
  return c;
}

Counters Engine::window_counters(std::uint32_t win) const {
  Counters c;
  if (win >= kMaxCountedWindows) return c;
  const WinCounts& w = (*win_counts_)[win];
  for (int i = 0; i < packet_type_count; ++i) c.sent[i] = w.sent[i].load(std::memory_order_relaxed);
  for (int i = 0; i < direct_op_count; ++i)
    c.direct[i] = w.direct[i].load(std::memory_order_relaxed);
  return c;
}

void Engine::start_agent() {
  if (mode_ != ProgressMode::async || agent_) return;
  agent_ = std::make_unique<Agent>(*this);
  agent_on_.store(true, std::memory_order_relaxed);
}

void Engine::stop_agent() {
  agent_on_.store(false, std::memory_order_relaxed);
  agent_.reset();
}

}  // namespace rma::progress
