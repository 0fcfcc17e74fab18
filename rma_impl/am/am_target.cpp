// The am path at the target: the lock manager at work, ops applied to window memory,
// rendezvous for large data, replies, and the flags an op carries taking effect when it
// completes here. Also the origin's handling of what comes back (grants, acks, replies,
// cts, posts).
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "am/am_win.hpp"
#include "core/element_copy.hpp"
#include "core/fault.hpp"
#include "core/reduce.hpp"
#include "core/runtime_impl.hpp"

namespace rma::am {
namespace {

bool is_op(PacketType t) {
  switch (t) {
    case PacketType::put:
    case PacketType::get:
    case PacketType::accumulate:
    case PacketType::get_accumulate:
    case PacketType::fetch_and_op:
    case PacketType::compare_and_swap:
      return true;
    default:
      return false;
  }
}

bool has_reply(PacketType t) {
  return t == PacketType::get || t == PacketType::get_accumulate || t == PacketType::fetch_and_op ||
         t == PacketType::compare_and_swap;
}

PacketType reply_type(PacketType t) {
  switch (t) {
    case PacketType::get:
      return PacketType::get_resp;
    case PacketType::get_accumulate:
      return PacketType::get_accumulate_resp;
    case PacketType::fetch_and_op:
      return PacketType::fetch_and_op_resp;
    default:
      return PacketType::compare_and_swap_resp;
  }
}

// Completion of a reply that streams window memory back: the op completes (and its flags,
// such as the unlock, take effect) only once the data has been read out.
struct StreamDone final : progress::SendDone {
  std::function<void()> fn;
  void sent() override {
    auto f = std::move(fn);
    delete this;
    f();
  }
};

}  // namespace

// Rendezvous: the origin may send the op's data now, into bulk transfer `bulk_id`; with
// `dest` (contiguous room for all of it), the cts says where, should the engine let the
// origin write it there itself (Engine::in_place_address; disp is unused in a cts).
void AmWin::send_cts(int src, const progress::PacketHeader& h, std::uint64_t bulk_id,
                     const std::byte* dest) {
  progress::PacketHeader cts = progress::make_header(PacketType::cts);
  cts.win = w_.id;
  cts.cookie = h.cookie;
  cts.aux = bulk_id;
  if (dest) cts.disp = e_.in_place_address(dest);
  e_.send(src, cts);
}

// A large reply: the reply header says data follows, then the window memory streams into
// the origin's bulk id (h.aux); the op completes once the last fragment has left (or the
// origin has copied the memory out in place, which it answers).
void AmWin::stream_reply(int src, const progress::PacketHeader& h, progress::PacketHeader reply,
                         std::span<const std::byte> data, std::shared_ptr<void> keep) {
  reply.flags = progress::flag_rndv;
  e_.send(src, reply);
  progress::PacketHeader frag = progress::make_header(PacketType::data);
  frag.cookie = h.aux;
  auto* done = new StreamDone;
  done->fn = [this, src, h, keep = std::move(keep)] { complete_at_target(src, h); };
  e_.send_stream(src, frag, data, done);
}

void AmWin::on_packet(int src, const progress::PacketHeader& h,
                      std::span<const std::byte> payload) {
  // An ack first, the packet an origin's closing wait polls for: what follows (layouts,
  // holding, the held epochs) concerns no ack but one with a fence or pscw flag, which a
  // conforming target never sends (a fuzzed one still goes the long way).
  if (h.type == PacketType::ack && !(h.flags & (progress::flag_fence | progress::flag_pscw))) {
    on_ack(src, h);
    return;
  }
  if ((h.flags & progress::flag_layout) && is_op(h.type)) learn_layout(src, payload);
  if (h.flags & progress::flag_fence) {  // fewest fence: notes, and ops held until due
    on_fence_packet(src, h, payload);
    return;
  }
  if (hold_if_waiting(src, h, payload)) return;
  AmTarget& T = t_[static_cast<std::size_t>(src)];
  if ((h.flags & progress::flag_pscw) && h.type != PacketType::post && h.seq > T.posts_made) {
    // fewest PSCW: ahead of this target's post for that epoch; applied when it posts.
    T.held_pscw.push_back(HeldPacket{h, take_spare_payload(payload)});
    return;
  }
  switch (h.type) {
    case PacketType::lock: {
      const LockType type =
          (h.flags & progress::flag_lock_shared) ? LockType::shared : LockType::exclusive;
      LockRequest r{src, type, {}};
      if (locks_.request(std::move(r))) grant(r);
      return;
    }
    case PacketType::lock_granted:
      T.lock = AmTarget::Lock::granted;
      return;
    case PacketType::unlock:
      if (h.flags & progress::flag_ack_req) send_ack(src);
      release(src);
      return;
    case PacketType::flush:
      send_ack(src);
      return;
    case PacketType::ack:
      on_ack(src, h);
      return;
    case PacketType::post:
      if (h.flags & progress::flag_pscw) {  // an origin asks for the post of its epoch h.seq
        if (T.posts_made >= h.seq)
          send_control(src, PacketType::post);
        else
          T.post_asked = h.seq;
        return;
      }
      ++T.posts_received;
      T.unconfirmed = 0;  // posts come in order: every earlier epoch is open there too
      return;
    case PacketType::done:
      ++done_received_;
      return;
    case PacketType::fence_count: {
      std::vector<std::uint32_t> v(payload.size() / sizeof(std::uint32_t));
      // A payload shorter than one count leaves v empty, and memcpy must not see its null data.
      if (!v.empty()) std::memcpy(v.data(), payload.data(), v.size() * sizeof(std::uint32_t));
      fence_in_[h.seq].counts[{static_cast<std::uint32_t>(h.aux), src}] = std::move(v);
      return;
    }
    case PacketType::cts:
      on_cts(src, h);
      return;
    case PacketType::get_resp:
    case PacketType::get_accumulate_resp:
    case PacketType::fetch_and_op_resp:
    case PacketType::compare_and_swap_resp:
      on_response(src, h, payload);
      return;
    default:
      if (is_op(h.type)) handle_op(src, h, payload);
      return;
  }
}

void AmWin::on_ack(int src, const progress::PacketHeader& h) {
  AmTarget& T = t_[static_cast<std::size_t>(src)];
  // count 0: an error report for an op that asked for no ack.
  if (h.count && T.acks_pending) --T.acks_pending;
  // The ack of the op that carried the lock request is also its grant.
  if (T.lock == AmTarget::Lock::requested && T.lock_op_cookie) {
    T.lock = AmTarget::Lock::granted;
    T.lock_op_cookie = 0;
  }
  if (h.flags & progress::flag_error) [[unlikely]] {
    auto cls = static_cast<ErrorClass>(h.aux);
    if (pending_error_)
      pending_error_ = Status(cls, "target " + std::to_string(src) +
                                       " rejected an operation: " + std::string(class_name(cls)));
  }
}

// --- target: locks ----------------------------------------------------------------------------

// While an origin's lock request waits here, what it sends after it on this window (ops,
// an unlock, a flush: the fewest protocol sends them ahead of the grant) waits with it, in
// order; the origin keeps it within hold_budget.
bool AmWin::hold_if_waiting(int src, const progress::PacketHeader& h,
                            std::span<const std::byte> payload) {
  const bool op = is_op(h.type);
  if (!op && h.type != PacketType::unlock && h.type != PacketType::flush) return false;
  LockRequest* r = locks_.waiting_request(src);
  if (!r || (op && core::fault(core::Fault::held_op_early))) return false;
  r->held.push_back(HeldPacket{h, {payload.begin(), payload.end()}});
  return true;
}

// Whether an op packet is one a conforming origin could have sent: a known dtype and op, a
// count whose bytes do not overflow, and (unless its data follows a cts) the operands its
// type needs. Anything else is dropped before it reaches the lock manager or window memory.
static bool well_formed(const progress::PacketHeader& h, std::span<const std::byte> payload) {
  if (h.dtype >= dtype_count || h.op >= op_count) return false;
  const std::size_t es = size_of(static_cast<Dtype>(h.dtype));
  if (h.count > (std::uint64_t{1} << 48) / es) return false;
  const bool no_op = static_cast<Op>(h.op) == Op::no_op;
  // Single-element atomics never go by rendezvous; larger transfers may.
  if (h.type == PacketType::fetch_and_op) return h.count == 1 && (no_op || payload.size() >= es);
  if (h.type == PacketType::compare_and_swap)  // integers only, as the origin checks
    return h.count == 1 && !is_pair(static_cast<Dtype>(h.dtype)) && payload.size() >= 2 * es;
  if (h.flags & progress::flag_rndv) return true;
  switch (h.type) {
    case PacketType::put:
    case PacketType::accumulate:
      return payload.size() >= h.count * es;
    case PacketType::get_accumulate:
      return no_op || h.aux || payload.size() >= h.count * es;
    default:
      return true;
  }
}

void AmWin::handle_op(int src, const progress::PacketHeader& h,
                      std::span<const std::byte> payload) {
  if (!well_formed(h, payload)) return;
  if (h.flags & (progress::flag_lock_shared | progress::flag_lock_exclusive)) {
    // The lock request travelled with this op: if the lock is busy, both wait, data included.
    const LockType type =
        (h.flags & progress::flag_lock_shared) ? LockType::shared : LockType::exclusive;
    if (!locks_.try_grant(src, type)) {
      std::vector<HeldPacket> held;
      held.push_back(HeldPacket{h, {payload.begin(), payload.end()}});
      locks_.request(LockRequest{src, type, std::move(held)});
      return;
    }
  }
  execute_op(src, h, payload);
}

void AmWin::grant(LockRequest& r) {
  if (r.origin == me_) {
    self_lock_held_ = true;
  } else if (!r.held.empty()) {
    // The op that carried the request first, then what came after it, as if arriving now.
    execute_op(r.origin, r.held.front().header, r.held.front().payload);
    for (std::size_t i = 1; i < r.held.size(); ++i)
      on_packet(r.origin, r.held[i].header, r.held[i].payload);
  } else {
    send_control(r.origin, PacketType::lock_granted);
  }
}

void AmWin::release(int origin) {
  if (origin == me_) self_lock_held_ = false;
  for (LockRequest& g : locks_.release(origin)) grant(g);
}

// --- target: ops --------------------------------------------------------------------------------

std::byte* AmWin::target_memory(const progress::PacketHeader& h) {
  const std::size_t bytes = h.count * size_of(static_cast<Dtype>(h.dtype));
  if (w_.flavor == Flavor::dynamic) {
    // Every byte must be attached; adjacent attached regions together may hold one op.
    std::uint64_t at = h.disp;
    if (bytes > UINT64_MAX - h.disp) return nullptr;  // the range would wrap around
    const std::uint64_t end = h.disp + bytes;
    while (at < end) {
      auto r = std::find_if(
          w_.attached.begin(), w_.attached.end(),
          [&](const core::Win::Region& g) { return at >= g.base && at < g.base + g.size; });
      if (r == w_.attached.end()) return nullptr;
      at = r->base + r->size;
    }
    return reinterpret_cast<std::byte*>(h.disp);
  }
  if (h.disp > w_.size || bytes > w_.size - h.disp) return nullptr;
  return w_.base + h.disp;
}

// Refuses an op: the origin learns why from the error flag of its ack or reply.
void AmWin::reject(int src, const progress::PacketHeader& h, ErrorClass cls) {
  progress::PacketHeader r =
      progress::make_header(has_reply(h.type) ? reply_type(h.type) : PacketType::ack);
  r.win = w_.id;
  r.cookie = h.cookie;
  r.flags = progress::flag_error;
  r.aux = static_cast<std::uint64_t>(cls);
  r.count = (h.flags & progress::flag_ack_req) ? 1 : 0;
  e_.send(src, r);
  progress::PacketHeader done = h;
  done.flags &= static_cast<std::uint16_t>(~progress::flag_ack_req);
  complete_at_target(src, done);
}

void AmWin::execute_op(int src, const progress::PacketHeader& h,
                       std::span<const std::byte> payload) {
  if (h.flags & progress::flag_layout) {
    Layout l;
    if (!take_layout(src, payload, l)) return reject(src, h, ErrorClass::type);
    return execute_layout_op(src, h, l, payload);
  }
  const auto dtype = static_cast<Dtype>(h.dtype);
  const auto op = static_cast<Op>(h.op);
  const std::size_t bytes = h.count * size_of(dtype);
  std::byte* mem = target_memory(h);
  // Outside the window here (a dynamic window with nothing attached there).
  if (!mem) return reject(src, h, ErrorClass::rma_range);
  // A write answers with at most an ack: no reply header to build on its way to it.
  if (h.type == PacketType::put || h.type == PacketType::accumulate)
    return execute_write(src, h, mem, payload);
  progress::PacketHeader reply = progress::make_header(reply_type(h.type));
  reply.win = w_.id;
  reply.cookie = h.cookie;
  reply.count = h.count;

  switch (h.type) {
    case PacketType::get:
      if (h.aux) {
        stream_reply(src, h, reply, {mem, bytes});
        return;
      }
      e_.send(src, reply, {mem, bytes});
      complete_at_target(src, h);
      return;
    case PacketType::get_accumulate:
      return execute_get_accumulate(src, h, reply, mem, payload);
    case PacketType::fetch_and_op: {
      alignas(16) std::byte old[16]{};  // a pair is up to 16 bytes; its padding stays 0
      (void)core::fetch_reduce(core::faulty(op), dtype, mem,
                               payload.empty() ? nullptr : payload.data(), old, 1);
      e_.send(src, reply, {old, size_of(dtype)});
      complete_at_target(src, h);
      return;
    }
    case PacketType::compare_and_swap: {
      alignas(16) std::byte old[16];  // a pair dtype is up to 16 bytes
      const std::size_t sz = size_of(dtype);
      (void)core::compare_and_swap(dtype, mem, payload.data() + sz, payload.data(), old);
      e_.send(src, reply, {old, sz});
      complete_at_target(src, h);
      return;
    }
    default:
      return;
  }
}

// put and accumulate: applied from the packet, or by rendezvous from the fragments that
// follow the cts as they arrive. A put names its window memory as the destination, so the
// engine may move its data in one copy instead (bulk.hpp); an accumulate reduces fragment
// by fragment.
void AmWin::execute_write(int src, const progress::PacketHeader& h, std::byte* mem,
                          std::span<const std::byte> payload) {
  const auto dtype = static_cast<Dtype>(h.dtype);
  const auto op = static_cast<Op>(h.op);
  const std::size_t bytes = h.count * size_of(dtype);
  const bool is_put = h.type == PacketType::put;
  if (h.flags & progress::flag_rndv) {
    // A pair's padding is not written, so its bytes cannot land in one copy.
    std::byte* dest = is_put && !core::has_padding(dtype) ? mem : nullptr;
    const std::uint64_t id = w_.rt.bulk().expect(
        bytes,
        [mem, is_put, op, dtype](std::uint64_t off, std::span<const std::byte> d) {
          if (is_put)
            core::copy_data(mem + off, d.data(), d.size(), dtype, off);
          else
            (void)core::reduce(core::faulty(op), dtype, mem + off, d.data(),
                               d.size() / size_of(dtype));
        },
        [this, src, h] { complete_at_target(src, h); }, dest);
    send_cts(src, h, id, dest);
    return;
  }
  if (is_put && core::has_padding(dtype)) [[unlikely]]
    core::copy_data(mem, payload.data(), bytes, dtype);
  else if (is_put)
    std::memcpy(mem, payload.data(),
                core::fault(core::Fault::put_short) && bytes ? bytes - 1 : bytes);
  else
    (void)core::reduce(core::faulty(op), dtype, mem, payload.data(), h.count);
  complete_at_target(src, h);
}

void AmWin::execute_get_accumulate(int src, const progress::PacketHeader& h,
                                   progress::PacketHeader reply, std::byte* mem,
                                   std::span<const std::byte> payload) {
  const auto dtype = static_cast<Dtype>(h.dtype);
  const auto op = static_cast<Op>(h.op);
  const std::size_t bytes = h.count * size_of(dtype);
  if (h.flags & progress::flag_rndv) {
    // Operands arrive in fragments after the cts; each fragment's old values go back
    // before it is applied, so no copy of the whole range is ever held.
    reply.flags = progress::flag_rndv;
    e_.send(src, reply);
    const std::uint64_t back = h.aux;
    const std::uint64_t id = w_.rt.bulk().expect(
        bytes,
        [this, src, mem, back, op, dtype](std::uint64_t off, std::span<const std::byte> d) {
          progress::PacketHeader frag = progress::make_header(PacketType::data);
          frag.cookie = back;
          frag.aux = off;
          frag.count = d.size();
          e_.send(src, frag, {mem + off, d.size()});
          (void)core::reduce(op, dtype, mem + off, d.data(), d.size() / size_of(dtype));
        },
        [this, src, h] { complete_at_target(src, h); });
    send_cts(src, h, id);
    return;
  }
  if (h.aux) {  // no_op over a large range: a read, streamed like a get
    stream_reply(src, h, reply, {mem, bytes});
    return;
  }
  std::vector<std::byte> old(bytes);
  (void)core::fetch_reduce(core::faulty(op), dtype, mem, op == Op::no_op ? nullptr : payload.data(),
                           old.data(), h.count);
  e_.send(src, reply, old);
  complete_at_target(src, h);
}

void AmWin::complete_at_target(int src, const progress::PacketHeader& h) {
  if (h.flags & progress::flag_fence_last) ++fence_in_[h.seq].completed;
  if (h.flags & progress::flag_done) ++done_received_;
  if ((h.flags & progress::flag_ack_req) && !has_reply(h.type)) send_ack(src);
  if (h.flags & progress::flag_unlock) release(src);
}

void AmWin::send_ack(int origin) {
  if (core::fault(core::Fault::drop_ack)) return;
  progress::PacketHeader ack = progress::make_header(PacketType::ack);
  ack.win = w_.id;
  ack.count = 1;  // answers an ack request (0 would be a bare error report)
  e_.send(origin, ack);
}

// --- origin: what comes back
// ----------------------------------------------------------------------

void AmWin::on_response(int src, const progress::PacketHeader& h,
                        std::span<const std::byte> payload) {
  auto it = waiting_.find(h.cookie);
  if (it == waiting_.end()) return;
  AmOp* a = it->second;
  AmTarget& T = t_[static_cast<std::size_t>(src)];
  // A reply to any op sent after the lock request means the grant (held ops apply after it).
  if (T.lock == AmTarget::Lock::requested && T.lock_op_cookie) {
    T.lock = AmTarget::Lock::granted;
    T.lock_op_cookie = 0;
  }
  if (h.flags & progress::flag_error) {
    pending_error_ = Status(static_cast<ErrorClass>(h.aux), std::string(to_string(a->op.kind)) +
                                                                " to rank " + std::to_string(src) +
                                                                ": outside the target's window");
  } else if (h.flags & progress::flag_rndv) {
    return;  // the data streams into the bulk registered at issue; it completes the op
  } else {
    core::copy_data(a->op.result, payload.data(), std::min(payload.size(), a->op.bytes()),
                    a->op.dtype);
  }
  waiting_.erase(it);
  a->st.response_done = true;
  on_local_complete(a);
}

// The data goes now: written in place where the cts says (h.disp), else in fragments
// (Engine::send_stream); the op's local completion (a->sent()) comes when it has left.
void AmWin::on_cts(int src, const progress::PacketHeader& h) {
  auto it = waiting_.find(h.cookie);
  if (it == waiting_.end()) return;
  AmOp* a = it->second;
  a->st.awaiting_cts = false;
  if (!a->op.has_response()) waiting_.erase(it);
  progress::PacketHeader frag = progress::make_header(PacketType::data);
  frag.cookie = h.aux;
  e_.send_stream(src, frag, {static_cast<const std::byte*>(a->op.origin), a->op.bytes()}, a,
                 h.disp);
  AmTarget& T = t_[static_cast<std::size_t>(src)];
  T.blocked_on_cts = false;
  pump(src);
}

void AmWin::describe(WindowState& s) const {
  for (int t = 0; t < n_; ++t) {
    const AmTarget& T = t_[static_cast<std::size_t>(t)];
    const std::size_t queued = T.queue.size() + T.batch.size();
    if (T.lock == AmTarget::Lock::none && !queued && !T.local_pending && !T.acks_pending) continue;
    TargetState ts;
    ts.target = t;
    ts.lock = T.lock == AmTarget::Lock::none ? "none"
              : T.lock == AmTarget::Lock::requested
                  ? "requested " + std::string(to_string(T.lock_type))
                  : "granted " + std::string(to_string(T.lock_type));
    if (T.blocked_on_cts) ts.lock += ", waiting for cts";
    ts.queued_ops = static_cast<std::uint32_t>(queued);
    ts.in_flight = T.local_pending;
    ts.awaiting_acks = T.acks_pending;
    s.targets.push_back(std::move(ts));
  }
  s.lock_holders = locks_.holders_text();
  s.lock_waiters = locks_.waiters_text();
}

}  // namespace rma::am
