// am_win.hpp — the packet protocol of the `am` path (the seed notes' design), per window.
//
// Origin side: ops are queued per target until a synchronization call issues them as a
// batch. The batch's first op may carry the lock request (a singleton op travels with it),
// its last op carries what the call needs — the unlock, an ack request, PSCW's done, the
// fence's last-op mark — and gets are moved last so that a get's reply can be the ack.
// Large transfers go by rendezvous: the op is sent alone, the target answers with a cts when
// it is ready, and the data follows in fragments; nothing else is sent to that target in
// between, so ops stay ordered.
//
// Target side: the lock manager grants or queues lock requests (with their op); an op that
// completes applies its flags: release the lock, ack, count PSCW's done or the fence's
// last ops.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/lock_manager.hpp"
#include "core/win.hpp"
#include "progress/engine.hpp"

namespace rma::am {

// The lock manager is the core's (fabric's direct path grants with it too).
using core::HeldPacket;
using core::LockManager;
using core::LockRequest;

class AmWin;

// An operation at its origin, from the call to its local (and, where it carries it, remote)
// completion.
struct AmOp final : progress::SendDone {
  AmWin* owner = nullptr;
  core::RmaOp op;
  std::array<std::byte, 16> operands{};  // fetch_and_op / compare_and_swap values, copied
  // Where the op is from its issue to its completion; reset as a whole when an op is reused.
  struct State {
    std::uint64_t cookie = 0;
    std::uint64_t response_bulk = 0;  // bulk id a large response streams into
    bool data_sent = false;           // the op's data left (eager packet or last fragment)
    bool response_done = false;
    bool awaiting_cts = false;
  } st;
  bool rndv = false;     // its data goes by rendezvous (decided when it is queued)
  AmOp* next = nullptr;  // in its target's queue or batch (OpList)

  bool locally_complete() const { return op.has_response() ? st.response_done : st.data_sent; }
  void sent() override;
};

// What an op's packet carries after its header (am_send.cpp): `bytes` sent from where they
// are when `by_ref` (else copied, or none), and `done`, told once they have left.
struct OpPayload {
  std::span<const std::byte> bytes;
  progress::SendDone* done = nullptr;
  bool by_ref = true;
};

// Ops in order, linked through AmOp::next. Queueing an op, turning the queue into a batch
// and sending the batch op by op allocate nothing and touch no other memory: most epochs
// queue one op or a few per target, and a deque per queue cost more than the op itself.
class OpList {
 public:
  bool empty() const { return !head_; }
  std::size_t size() const { return n_; }
  AmOp* front() const { return head_; }

  void push_back(AmOp* a) {
    a->next = nullptr;
    if (tail_)
      tail_->next = a;
    else
      head_ = a;
    tail_ = a;
    ++n_;
  }
  AmOp* pop_front() {
    AmOp* a = head_;
    head_ = a->next;
    if (!head_) tail_ = nullptr;
    a->next = nullptr;
    --n_;
    return a;
  }
  // Appends all of `from`, in order, and leaves it empty.
  void splice(OpList& from) {
    if (from.empty()) return;
    if (tail_)
      tail_->next = from.head_;
    else
      head_ = from.head_;
    tail_ = from.tail_;
    n_ += from.n_;
    from = OpList{};
  }
  // Moves the ops for which last(op) holds behind the others, each group keeping its order.
  template <class Pred>
  void move_to_back(Pred&& last) {
    AmOp* found = head_;
    while (found && !last(found)) found = found->next;
    if (!found) return;  // none to move: the common case relinks nothing
    OpList front, back;
    while (!empty()) {
      AmOp* a = pop_front();
      (last(a) ? back : front).push_back(a);
    }
    front.splice(back);
    *this = front;
  }

 private:
  AmOp* head_ = nullptr;
  AmOp* tail_ = nullptr;
  std::size_t n_ = 0;
};

// Packets held in arrival order, consumed from the front. An origin running ahead of its
// target keeps this queue busy every epoch, so it reuses its storage (a deque would take and
// give back a block every few packets).
class HeldQueue {
 public:
  bool empty() const { return head_ == v_.size(); }
  HeldPacket& front() { return v_[head_]; }
  void pop_front() { ++head_; }
  void push_back(HeldPacket p) {
    if (empty()) {
      v_.clear();
      head_ = 0;
    } else if (head_ >= kCompactAt && 2 * head_ >= v_.size()) {
      v_.erase(v_.begin(), v_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    v_.push_back(std::move(p));
  }

 private:
  static constexpr std::size_t kCompactAt = 64;
  std::vector<HeldPacket> v_;
  std::size_t head_ = 0;
};

// How far a synchronization call has taken one target.
enum class Closing : std::uint8_t { flush_local, flush, unlock };

struct AmTarget {
  enum class Lock : std::uint8_t { none, requested, granted };
  Lock lock = Lock::none;
  LockType lock_type = LockType::exclusive;
  std::uint64_t lock_op_cookie = 0;  // the op that carried the lock request (its reply grants)

  OpList queue;  // not yet issued
  // What the queue would cost on the wire, headers and eager data (AmWin::queue_bytes),
  // kept as ops are queued: every lock epoch of the fewest protocol asks.
  std::size_t queue_bytes = 0;
  // The batch being issued: ops left, and the flags of its first and last op.
  OpList batch;
  std::uint16_t batch_first_flags = 0;
  std::uint16_t batch_last_flags = 0;
  std::uint32_t batch_seq = 0;
  std::vector<std::uint32_t> batch_note;  // fewest fence: a note riding on the last op
  bool blocked_on_cts = false;

  std::uint32_t local_pending = 0;   // issued, not locally complete
  std::uint32_t acks_pending = 0;    // acks (remote completion) still to come
  std::uint32_t unacked = 0;         // ops issued with no completion asked for since
  std::uint32_t posts_received = 0;  // PSCW: posts from this target
  std::uint32_t posts_consumed = 0;
  std::uint16_t batch_every_flags = 0;  // flags every op of the batch carries (flag_pscw)
  // fewest PSCW, as origin: access epochs to this target so far (the seq its ops carry);
  // as target: exposure epochs posted to this origin, what it sent ahead of them, and the
  // epoch it asked a post for (0: none).
  std::uint32_t access_epochs = 0;
  std::size_t unconfirmed = 0;  // bytes sent ahead of posts since the last post received
  std::uint32_t posts_made = 0;
  HeldQueue held_pscw;
  std::uint32_t post_asked = 0;

  // Progress of the current synchronization call on this target.
  enum class Phase : std::uint8_t { idle, begin, await_grant, ready, issued, done };
  Phase phase = Phase::idle;

  // Issued, and still waiting for what closing `mode` needs (ops sent, locally complete,
  // acked). Inline: a closing wait asks at every poll, and mostly hears yes.
  bool waits_after_issue(Closing mode) const {
    return !batch.empty() || blocked_on_cts || local_pending ||
           (mode != Closing::flush_local && acks_pending);
  }
};

// What the payload of an op with flag_layout starts with: the target type's id on this window
// from this origin, the bytes of its description that follow (0 when the target holds the
// type already), and the target count. The op's data comes after.
struct LayoutPrefix {
  std::uint32_t id = 0;
  std::uint32_t description_bytes = 0;
  std::uint64_t count = 0;
};

class AmWin final : public core::ProtocolWin {
 public:
  explicit AmWin(core::Win& w);
  ~AmWin() override;

  // --- origin side (the slots of am_ops()) ---
  Status enqueue(core::Call& c, core::RmaOp& op);
  Status fence(core::Call& c, unsigned asserts);
  Status post(core::Call& c, std::span<const int> group, unsigned asserts);
  Status start(core::Call& c, std::span<const int> group, unsigned asserts);
  Status complete(core::Call& c);
  Status wait(core::Call& c);
  Result<bool> test(core::Call& c);
  Status lock(core::Call& c, LockType type, int target, unsigned asserts);
  Status close(core::Call& c, Closing mode, std::span<const int> targets);
  Status request_wait(core::Call& c, core::RequestState& req);
  Result<bool> request_test(core::Call& c, core::RequestState& req);
  Status free(core::Call& c);

  // --- target side ---
  void on_packet(int src, const progress::PacketHeader& h,
                 std::span<const std::byte> payload) override;

  void describe(WindowState& s) const override;
  bool carries(const Layout& target) const override;
  // The most a layout op's prefix adds to its packet (0 for other ops).
  static std::size_t prefix_bound(const core::RmaOp& op);
  // The first error a target reported since the last call (RMA_RANGE on a dynamic window).
  Status take_error() {
    Status s = std::move(pending_error_);
    pending_error_ = Status::ok();
    return s;
  }
  bool fence_epoch_open() const { return fence_open_; }

 private:
  friend struct AmOp;

  // origin
  AmOp* new_op(core::RmaOp&& op);
  bool passive() const;
  bool lock_needed(int t) const;
  bool piggyback_ok(int t) const;
  bool fits_hold_budget(int t) const;
  std::size_t held_bytes(int t) const;   // what the target would hold for t's queue (fewest)
  std::size_t queue_bytes(int t) const;  // the same, for any protocol (header + eager data)
  void issue_batch(int t, std::uint16_t first_flags, std::uint16_t last_flags, std::uint32_t seq,
                   std::uint16_t every_flags = 0);
  void issue_pscw(int t, std::uint32_t seq);
  void release_held_pscw(int origin);
  std::vector<std::byte> take_spare_payload(std::span<const std::byte> payload);
  void give_back_payload(std::vector<std::byte> v);
  void pump(int t);
  // sending an op (am_send.cpp)
  void send_op(int t, AmOp* op, std::uint16_t flags, std::uint32_t seq,
               std::span<const std::uint32_t> note = {});
  progress::PacketHeader op_header(AmOp& a, std::uint32_t seq);
  void count_issued(int t, const AmOp& a, std::uint16_t flags);
  void expect_response(AmOp& a, progress::PacketHeader& h);
  void send_layout_op(int t, const progress::PacketHeader& h, const core::RmaOp& op,
                      const OpPayload& payload, std::uint32_t seq,
                      std::span<const std::uint32_t> note);
  void send_with_note(int t, const progress::PacketHeader& h, const OpPayload& payload,
                      std::uint32_t seq, std::span<const std::uint32_t> note);
  void send_control(int t, PacketType type, std::uint16_t flags = 0, std::uint32_t seq = 0);
  bool advance(int t, Closing mode);
  // Inline: a closing wait asks it at every poll.
  bool batch_done(int t) const {
    const AmTarget& T = t_[static_cast<std::size_t>(t)];
    return T.batch.empty() && !T.blocked_on_cts;
  }
  template <class Pred>
  Status wait_for(core::Call& c, const char* what, int peer, Pred&& pred) {
    return e_.wait_until(c.lk, pred, progress::WaitInfo{progress::Ctx::rma_sync, what, peer});
  }
  Status apply_local(core::Call& c, core::RmaOp& op);
  Status acquire_self_lock(core::Call& c, LockType type);
  // The op's data left (or its reply came in): its request completes, and once it waits for
  // nothing more (a cts) it goes back to the free list. Inline: every op passes here.
  void on_local_complete(AmOp* op) {
    --t_[static_cast<std::size_t>(op->op.target)].local_pending;
    if (op->op.unpacks()) [[unlikely]]
      unpack_result(op->op);
    if (op->op.request) op->op.request->done = true;
    if (!op->locally_complete() || op->st.awaiting_cts) return;
    op->op.request.reset();
    if (op->op.derived) [[unlikely]]
      op->op.derived.reset();  // let go of the types and packed buffers
    op->next = free_ops_;
    free_ops_ = op;
  }

  // derived types (am_layout.cpp)
  std::vector<std::byte> layout_prefix(int t, const core::RmaOp& op);
  void learn_layout(int src, std::span<const std::byte> payload);
  bool take_layout(int src, std::span<const std::byte>& payload, Layout& out) const;
  void execute_layout_op(int src, const progress::PacketHeader& h, const Layout& l,
                         std::span<const std::byte> data);
  Status apply_local_layout(core::RmaOp& op, std::byte* mem);
  static void unpack_result(core::RmaOp& op);
  std::byte* layout_memory(const progress::PacketHeader& h, const Layout& l);
  void reject(int src, const progress::PacketHeader& h, ErrorClass cls);

  // target
  bool hold_if_waiting(int src, const progress::PacketHeader& h,
                       std::span<const std::byte> payload);
  void handle_op(int src, const progress::PacketHeader& h, std::span<const std::byte> payload);
  void execute_op(int src, const progress::PacketHeader& h, std::span<const std::byte> payload);
  void execute_write(int src, const progress::PacketHeader& h, std::byte* mem,
                     std::span<const std::byte> payload);
  void execute_get_accumulate(int src, const progress::PacketHeader& h,
                              progress::PacketHeader reply, std::byte* mem,
                              std::span<const std::byte> payload);
  void complete_at_target(int src, const progress::PacketHeader& h);
  void send_cts(int src, const progress::PacketHeader& h, std::uint64_t bulk_id,
                const std::byte* dest = nullptr);
  void stream_reply(int src, const progress::PacketHeader& h, progress::PacketHeader reply,
                    std::span<const std::byte> data, std::shared_ptr<void> keep = nullptr);
  void send_ack(int origin);
  void release(int origin);
  void grant(LockRequest& r);
  void on_ack(int src, const progress::PacketHeader& h);
  void on_response(int src, const progress::PacketHeader& h, std::span<const std::byte> payload);
  void on_cts(int src, const progress::PacketHeader& h);
  std::byte* target_memory(const progress::PacketHeader& h);

  // fence (am_fence.cpp)
  Status exchange_counts(core::Call& c, std::uint32_t epoch, std::vector<std::uint32_t>& counts,
                         std::uint32_t& mine);
  Status fence_fewest(core::Call& c, std::uint32_t epoch);
  bool fence_by_rounds() const;
  void issue_fence_batch(int t, std::uint32_t epoch, std::vector<std::uint32_t> note);
  void send_note(int t, std::uint32_t epoch, std::span<const std::uint32_t> note);
  void on_fence_packet(int src, const progress::PacketHeader& h,
                       std::span<const std::byte> payload);
  void take_note(int src, std::uint32_t epoch, std::span<const std::byte> note);
  void release_held_fence();

  core::Win& w_;
  progress::Engine& e_;
  int me_;
  int n_;
  std::vector<AmTarget> t_;
  std::unordered_map<std::uint64_t, AmOp*> waiting_;  // by cookie: cts or response due
  std::uint64_t next_cookie_ = 1;
  Status pending_error_;
  std::vector<std::unique_ptr<AmOp>> pool_;
  AmOp* free_ops_ = nullptr;  // reusable ops of pool_, linked through AmOp::next

  // target side
  LockManager locks_;
  bool self_lock_held_ = false;
  std::uint32_t done_received_ = 0;                     // PSCW: dones not yet taken by wait or test
  std::vector<std::vector<std::byte>> spare_payloads_;  // held PSCW packets' buffers, reused

  // derived types: ids this rank gave the types it sent to each target (the keys kept alive
  // by shipped_types_), and the types each origin sent here; both live as long as the window
  std::vector<std::unordered_map<const Datatype*, std::uint32_t>> shipped_;
  std::vector<TypeRef> shipped_types_;
  std::vector<std::unordered_map<std::uint32_t, TypeRef>> received_types_;
  std::uint32_t next_type_id_ = 1;

  // fence
  bool fence_open_ = false;  // a fence without nosucceed came last
  std::uint32_t fence_epoch_ = 0;
  struct FenceIn {
    std::uint32_t completed = 0;  // origins whose last op of the epoch completed here
    std::map<std::pair<std::uint32_t, int>, std::vector<std::uint32_t>> counts;  // (step, src)
    // fewest: what the notes of this epoch said (am_fence.cpp)
    std::uint32_t contributions = 0;    // at rank 0: ranks that told it their targets
    std::vector<std::uint32_t> totals;  // at rank 0: origins per target, so far
    bool has_total = false;             // rank 0 told this rank how many origins it has
    std::uint32_t total = 0;
    std::uint32_t nothing = 0;  // `rounds`: ranks that said they sent nothing here
    std::vector<char> heard;    // ranks from which a packet of this epoch came
  };
  std::map<std::uint32_t, FenceIn> fence_in_;
  // fewest: ops of the next fence epoch, from origins already in it, until this rank
  // returns from its fence (by arrival)
  std::deque<std::pair<int, HeldPacket>> held_fence_;
};

}  // namespace rma::am
