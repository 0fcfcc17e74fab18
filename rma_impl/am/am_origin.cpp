// The am path at the origin: queueing, the lock piggybacked on a singleton op, the closing
// of passive-target epochs (unlock, flush, flush_local and their _all forms) and
// post/start/complete/wait: when a batch goes and with which flags. am_send.cpp puts the
// batches' packets on the wire; am_fence.cpp has fence.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "am/am_win.hpp"
#include "core/element_copy.hpp"
#include "core/fault.hpp"
#include "core/reduce.hpp"
#include "core/runtime_impl.hpp"

namespace rma::am {

void AmOp::sent() {
  st.data_sent = true;
  if (!op.has_response()) owner->on_local_complete(this);
}

AmWin::AmWin(core::Win& w)
    : w_(w), e_(w.engine), me_(w.rank()), n_(w.ranks()), t_(static_cast<std::size_t>(n_)) {}

AmWin::~AmWin() = default;

// --- ops ----------------------------------------------------------------------------------

static bool goes_by_rendezvous(const core::RmaOp& op, std::size_t eager_limit) {
  switch (op.kind) {
    case PacketType::put:
    case PacketType::accumulate:
      return op.bytes() > eager_limit;
    case PacketType::get_accumulate:
      return op.op != Op::no_op && op.bytes() > eager_limit;
    default:
      return false;
  }
}

AmOp* AmWin::new_op(core::RmaOp&& op) {
  AmOp* a;
  if (free_ops_) {
    a = free_ops_;
    free_ops_ = a->next;
    a->st = {};
  } else {
    pool_.push_back(std::make_unique<AmOp>());
    a = pool_.back().get();
    a->owner = this;
  }
  a->op = std::move(op);
  // A layout op's prefix rides in the same packet as its eager data.
  a->rndv = goes_by_rendezvous(a->op, w_.rt.eager_limit() - prefix_bound(a->op));
  return a;
}

bool AmWin::passive() const {
  return w_.epochs.access() == core::Access::lock || w_.epochs.access() == core::Access::lock_all;
}

bool AmWin::lock_needed(int t) const {
  return passive() && !w_.epochs.nocheck(t);
}

bool AmWin::piggyback_ok(int t) const {
  if (core::fault(core::Fault::no_singleton)) return false;
  const AmTarget& T = t_[static_cast<std::size_t>(t)];
  return T.queue.size() == 1 && !T.queue.front()->rndv;
}

// Under the fewest protocol a lock epoch's ops go ahead of the grant when what the target
// would hold for them fits the window's hold_budget: per op its 48-byte header plus its eager
// data (a rendezvous op's data waits for the cts, which comes after the grant).
bool AmWin::fits_hold_budget(int t) const {
  return held_bytes(t) <= w_.info.hold_budget;
}

std::size_t AmWin::held_bytes(int t) const {
  if (w_.info.protocol != Protocol::fewest || core::fault(core::Fault::no_singleton))
    return SIZE_MAX;
  return queue_bytes(t);
}

std::size_t AmWin::queue_bytes(int t) const {
  return t_[static_cast<std::size_t>(t)].queue_bytes;
}

// What one queued op adds to queue_bytes: its header, and its data unless that waits for a cts.
static std::size_t wire_bytes(const AmOp& a) {
  const core::RmaOp& op = a.op;
  std::size_t bytes = sizeof(progress::PacketHeader) + AmWin::prefix_bound(op);
  if (a.rndv) return bytes;
  switch (op.kind) {
    case PacketType::put:
    case PacketType::accumulate:
      return bytes + op.bytes();
    case PacketType::get_accumulate:
      return bytes + (op.op == Op::no_op ? 0 : op.bytes());
    case PacketType::fetch_and_op:
      return bytes + size_of(op.dtype);
    case PacketType::compare_and_swap:
      return bytes + 2 * size_of(op.dtype);
    default:
      return bytes;
  }
}

// The op moves into the queue: the caller's RmaOp keeps its fields but no longer its request.
Status AmWin::enqueue(core::Call& c, core::RmaOp& call_op) {
  if (call_op.target == me_) return apply_local(c, call_op);
  AmOp* a = new_op(std::move(call_op));
  const core::RmaOp& op = a->op;
  const std::size_t sz = size_of(op.dtype);
  if (op.kind == PacketType::fetch_and_op) {
    if (op.origin) std::memcpy(a->operands.data(), op.origin, sz);
    a->op.origin = a->operands.data();
  } else if (op.kind == PacketType::compare_and_swap) {
    std::memcpy(a->operands.data(), op.origin, sz);
    std::memcpy(a->operands.data() + sz, op.compare, sz);
    a->op.origin = a->operands.data();
  }
  AmTarget& T = t_[static_cast<std::size_t>(op.target)];
  T.queue.push_back(a);
  T.queue_bytes += wire_bytes(*a);
  return Status::ok();
}

// Ops to this rank's own window: applied at once, under this rank's own lock when the epoch
// is passive (taken here, lazily, inside lock_all).
Status AmWin::apply_local(core::Call& c, core::RmaOp& op) {
  if (lock_needed(me_) && !self_lock_held_) {
    const LockType type =
        w_.epochs.access() == core::Access::lock ? w_.epochs.lock_type(me_) : LockType::shared;
    RMA_TRY(acquire_self_lock(c, type));
  }
  std::byte* mem =
      w_.flavor == Flavor::dynamic ? reinterpret_cast<std::byte*>(op.disp) : w_.base + op.disp;
  if (op.has_target_layout()) [[unlikely]] {
    RMA_TRY(apply_local_layout(op, mem));
    if (op.unpacks()) unpack_result(op);
    if (op.request) op.request->done = true;
    return Status::ok();
  }
  switch (op.kind) {
    case PacketType::put:
      if (core::has_padding(op.dtype)) [[unlikely]]
        core::copy_data(mem, op.origin, op.bytes(), op.dtype);
      else
        std::memmove(
            mem, op.origin,
            core::fault(core::Fault::put_short) && op.bytes() ? op.bytes() - 1 : op.bytes());
      break;
    case PacketType::get:
      core::copy_data(op.result, mem, op.bytes(), op.dtype);
      break;
    case PacketType::accumulate:
      RMA_TRY(core::reduce(core::faulty(op.op), op.dtype, mem, op.origin, op.count));
      break;
    case PacketType::get_accumulate:
    case PacketType::fetch_and_op:
      RMA_TRY(
          core::fetch_reduce(core::faulty(op.op), op.dtype, mem, op.origin, op.result, op.count));
      break;
    case PacketType::compare_and_swap:
      RMA_TRY(core::compare_and_swap(op.dtype, mem, op.compare, op.origin, op.result));
      break;
    default:
      return {ErrorClass::intern, "apply_local: not an op"};
  }
  if (op.unpacks()) [[unlikely]]
    unpack_result(op);  // a derived-type result whose target side was contiguous
  if (op.request) op.request->done = true;
  return Status::ok();
}

Status AmWin::acquire_self_lock(core::Call& c, LockType type) {
  if (locks_.request(LockRequest{me_, type, {}})) {
    self_lock_held_ = true;
    return Status::ok();
  }
  return wait_for(c, "lock on this rank's own window", -2, [&] { return self_lock_held_; });
}

// --- passive target -------------------------------------------------------------------------

Status AmWin::lock(core::Call& c, LockType type, int target, unsigned asserts) {
  AmTarget& T = t_[static_cast<std::size_t>(target)];
  T.lock = AmTarget::Lock::none;
  T.lock_type = type;
  // The lock request waits for the first op (or is never sent); on this rank's own window it
  // is taken now, without a message.
  if (target == me_ && !(asserts & assert_nocheck)) return acquire_self_lock(c, type);
  return Status::ok();
}

// One step of closing `t` for `mode`; true once done. Called again and again from the wait
// predicate, so it never blocks: each call goes as far as the packets received allow.
bool AmWin::advance(int t, Closing mode) {
  AmTarget& T = t_[static_cast<std::size_t>(t)];
  using Phase = AmTarget::Phase;
  using Lock = AmTarget::Lock;
  for (;;) {
    switch (T.phase) {
      case Phase::idle:
      case Phase::begin: {
        if (!lock_needed(t) || T.lock == Lock::granted) {
          T.phase = Phase::ready;
          break;
        }
        if (T.lock == Lock::requested) {
          T.phase = Phase::await_grant;
          break;
        }
        if (T.queue.empty()) {  // never locked and nothing to say: costs nothing
          T.phase = Phase::done;
          break;
        }
        const LockType type = w_.epochs.access() == core::Access::lock_all ? LockType::shared
                                                                           : w_.epochs.lock_type(t);
        const std::uint16_t lock_flag =
            type == LockType::shared ? progress::flag_lock_shared : progress::flag_lock_exclusive;
        T.lock_type = type;
        T.lock = Lock::requested;
        const bool ahead =
            w_.info.protocol == Protocol::fewest ? fits_hold_budget(t) : piggyback_ok(t);
        if (ahead) {
          // ch3: the singleton op carries the lock request; its reply (or ack) is the grant.
          // fewest: the whole batch goes, the first op carrying the request; the target
          // holds what arrives before the grant and applies it, in order, at the grant.
          // A single op over the budget asks first like any batch: the budget is a bound.
          e_.count_epoch(true);
          issue_batch(t, lock_flag,
                      mode == Closing::unlock ? progress::flag_unlock | progress::flag_ack_req
                                              : progress::flag_ack_req,
                      0);
          T.phase = Phase::issued;
          break;
        }
        e_.count_epoch(false);
        send_control(t, PacketType::lock, lock_flag);
        T.phase = Phase::await_grant;
        break;
      }
      case Phase::await_grant:
        if (T.lock != Lock::granted) return false;
        T.phase = Phase::ready;
        break;
      case Phase::ready: {
        const bool holds = lock_needed(t) && T.lock == Lock::granted;
        if (!T.queue.empty()) {
          std::uint16_t last = 0;
          if (mode == Closing::unlock)
            last = holds ? progress::flag_unlock | progress::flag_ack_req : progress::flag_ack_req;
          if (mode == Closing::flush) last = progress::flag_ack_req;
          issue_batch(t, 0, last, 0);
        } else if (mode == Closing::unlock && holds) {
          // Earlier ops whose completion nobody asked for make the unlock ask for it.
          send_control(t, PacketType::unlock, T.unacked ? progress::flag_ack_req : 0);
        } else if (mode != Closing::flush_local && T.unacked) {
          send_control(t, PacketType::flush, progress::flag_ack_req);
        }
        T.phase = Phase::issued;
        break;
      }
      case Phase::issued:
        if (T.waits_after_issue(mode)) return false;
        T.phase = Phase::done;
        break;
      case Phase::done:
        if (mode == Closing::unlock) {
          T.lock = Lock::none;
          T.lock_op_cookie = 0;
          T.unacked = 0;
        }
        return true;
    }
  }
}

Status AmWin::close(core::Call& c, Closing mode, std::span<const int> targets) {
  for (int t : targets)
    if (t != me_) t_[static_cast<std::size_t>(t)].phase = AmTarget::Phase::begin;
  const char* what = mode == Closing::unlock  ? "unlock: lock grant, ops and acks"
                     : mode == Closing::flush ? "flush: ops and acks"
                                              : "flush_local: ops locally complete";
  const int peer = targets.size() == 1 ? targets[0] : -2;
  Status s = wait_for(c, what, peer == me_ ? -1 : peer, [&] {
    bool all = true;
    for (int t : targets) {
      if (t == me_) continue;
      // Most polls of the wait find the target still owing its ack: say so here, without
      // a call into advance() (which would answer the same, changing nothing).
      const AmTarget& T = t_[static_cast<std::size_t>(t)];
      if (T.phase == AmTarget::Phase::issued && T.waits_after_issue(mode))
        all = false;
      else
        all = advance(t, mode) && all;
    }
    return all;
  });
  for (int t : targets)
    if (t != me_) t_[static_cast<std::size_t>(t)].phase = AmTarget::Phase::idle;
  if (!s) return s;
  if (mode == Closing::unlock && self_lock_held_ &&
      std::find(targets.begin(), targets.end(), me_) != targets.end())
    release(me_);
  return take_error();
}

Status AmWin::request_wait(core::Call& c, core::RequestState& req) {
  if (req.done) return req.status;
  const int t = req.target;
  t_[static_cast<std::size_t>(t)].phase = AmTarget::Phase::begin;
  Status s = wait_for(c, "request: op locally complete", t, [&] {
    advance(t, Closing::flush_local);
    return req.done.load();
  });
  t_[static_cast<std::size_t>(t)].phase = AmTarget::Phase::idle;
  return s ? req.status : s;
}

Result<bool> AmWin::request_test(core::Call&, core::RequestState& req) {
  if (req.done) return true;
  // One step: issue the request's op if it is still queued (taking the lock if needed),
  // then look at what has arrived. Repeated calls pick up where the last one stopped.
  AmTarget& T = t_[static_cast<std::size_t>(req.target)];
  T.phase = AmTarget::Phase::begin;
  advance(req.target, Closing::flush_local);
  e_.progress(progress::Ctx::rma_sync);
  advance(req.target, Closing::flush_local);
  T.phase = AmTarget::Phase::idle;
  if (req.done && !req.status) return req.status;
  return req.done.load();
}

// --- active target: post/start/complete/wait ------------------------------------------------

// ch3: post sends each origin a zero-byte post. fewest: it sends nothing; it opens what the
// origins sent ahead of it (held until now) and answers an origin that asked for it.
//
// Dones are counted, never reset here: wait() and test() take what they consume. A done
// that arrived before this post (an origin that started with nocheck while nothing ordered
// the post first: an erroneous program, but one the race checker must see to its end)
// then still counts, instead of leaving wait() blocked for good.
Status AmWin::post(core::Call&, std::span<const int> group, unsigned asserts) {
  if (asserts & assert_nocheck) return Status::ok();  // the origins do not wait for posts
  const bool fewest = w_.info.protocol == Protocol::fewest;
  for (int r : group) {
    AmTarget& T = t_[static_cast<std::size_t>(r)];
    if (r == me_) {
      ++T.posts_received;
    } else if (!fewest) {
      send_control(r, PacketType::post);
    } else {
      ++T.posts_made;
      if (T.post_asked && T.post_asked <= T.posts_made) {
        T.post_asked = 0;
        send_control(r, PacketType::post);
      }
      release_held_pscw(r);
    }
  }
  return Status::ok();
}

// What `origin` sent for access epochs this target has now posted, applied in arrival order
// (an origin sends its epochs in order, so the due packets are at the front).
void AmWin::release_held_pscw(int origin) {
  AmTarget& T = t_[static_cast<std::size_t>(origin)];
  while (!T.held_pscw.empty() && T.held_pscw.front().header.seq <= T.posts_made) {
    HeldPacket p = std::move(T.held_pscw.front());
    T.held_pscw.pop_front();
    on_packet(origin, p.header, p.payload);
    give_back_payload(std::move(p.payload));
  }
}

// An origin ahead of its target has every epoch's packet held here until the post: the
// buffers are reused, so a loop of epochs copies each payload but allocates nothing.
std::vector<std::byte> AmWin::take_spare_payload(std::span<const std::byte> payload) {
  std::vector<std::byte> v;
  if (!spare_payloads_.empty()) {
    v = std::move(spare_payloads_.back());
    spare_payloads_.pop_back();
  }
  v.assign(payload.begin(), payload.end());
  return v;
}

void AmWin::give_back_payload(std::vector<std::byte> v) {
  constexpr std::size_t kSpares = 64;
  constexpr std::size_t kLargest = 4096;  // a rendezvous-sized buffer is not kept
  if (spare_payloads_.size() < kSpares && v.capacity() <= kLargest)
    spare_payloads_.push_back(std::move(v));
}

// The ops of access epoch `seq` to `t` (or a lone done), each tagged with the epoch.
void AmWin::issue_pscw(int t, std::uint32_t seq) {
  if (!t_[static_cast<std::size_t>(t)].queue.empty())
    issue_batch(t, 0, progress::flag_done, seq, progress::flag_pscw);
  else
    send_control(t, PacketType::done, progress::flag_pscw, seq);
}

Status AmWin::start(core::Call&, std::span<const int>, unsigned) {
  return Status::ok();
}

Status AmWin::complete(core::Call& c) {
  // The start group stays as it is until did_complete(), after this call.
  const std::vector<int>& group = w_.epochs.start_group();
  const bool nocheck = w_.epochs.start_nocheck();
  const bool fewest = w_.info.protocol == Protocol::fewest;
  using Phase = AmTarget::Phase;
  for (int r : group) t_[static_cast<std::size_t>(r)].phase = Phase::begin;
  Status s = wait_for(c, "complete: post from each target, ops sent", -2, [&] {
    bool all = true;
    for (int r : group) {
      AmTarget& T = t_[static_cast<std::size_t>(r)];
      if (T.phase == Phase::begin && fewest && !nocheck && r != me_) {
        // The ops go ahead of the post when the target may hold them; else ask for the post.
        // Epochs sent ahead that no post has confirmed yet count too: an origin may run
        // ahead of a slow target by at most hold_budget bytes.
        const std::uint32_t seq = ++T.access_epochs;
        // A lone `done` is held too: it occupies its header.
        std::size_t bytes = held_bytes(r);
        if (T.queue.empty() && bytes != SIZE_MAX) bytes = sizeof(progress::PacketHeader);
        if (bytes <= w_.info.hold_budget && T.unconfirmed <= w_.info.hold_budget - bytes) {
          T.unconfirmed += bytes;
          e_.count_epoch(true);
          issue_pscw(r, seq);
          T.phase = Phase::issued;
        } else {
          e_.count_epoch(false);
          send_control(r, PacketType::post, progress::flag_pscw, seq);
          T.phase = Phase::await_grant;
        }
      }
      if (T.phase == Phase::await_grant) {
        if (T.posts_received == T.posts_consumed) {
          all = false;
          continue;
        }
        ++T.posts_consumed;
        issue_pscw(r, T.access_epochs);
        T.phase = Phase::issued;
      }
      if (T.phase == Phase::begin) {
        if (!nocheck && T.posts_received == T.posts_consumed) {
          all = false;
          continue;
        }
        ++T.posts_consumed;
        if (r == me_)
          ++done_received_;  // ops to self were applied at the call
        else if (!T.queue.empty())
          issue_batch(r, 0, progress::flag_done, 0);
        else
          send_control(r, PacketType::done);
        T.phase = Phase::issued;
      }
      if (T.phase == Phase::issued) {
        if (r != me_ && (!batch_done(r) || T.local_pending)) {
          all = false;
          continue;
        }
        T.phase = Phase::done;
      }
    }
    return all;
  });
  for (int r : group) t_[static_cast<std::size_t>(r)].phase = Phase::idle;
  return s ? take_error() : s;
}

Status AmWin::wait(core::Call& c) {
  const auto expected = static_cast<std::uint32_t>(w_.epochs.post_group().size());
  RMA_TRY(
      wait_for(c, "wait: done from each origin", -2, [&] { return done_received_ >= expected; }));
  done_received_ -= expected;
  return Status::ok();
}

Result<bool> AmWin::test(core::Call&) {
  const auto expected = static_cast<std::uint32_t>(w_.epochs.post_group().size());
  e_.progress(progress::Ctx::rma_sync);
  if (done_received_ < expected) return false;
  done_received_ -= expected;
  return true;
}

// --- free -------------------------------------------------------------------------------------

Status AmWin::free(core::Call& c) {
  // Every rank has finished its epochs on this window before any forgets it.
  return w_.rt.p2p().barrier(c.lk);
}

}  // namespace rma::am
