// The am path at the origin, building and sending op packets: a batch issued op by op
// (pump), each op's header, flags and payload (send_op), a fence note riding on the last op,
// and the control packets of the synchronization calls. am_origin.cpp decides when a batch
// goes and with which flags; this file puts it on the wire.
#include <cstdint>
#include <cstring>

#include "am/am_win.hpp"
#include "core/element_copy.hpp"
#include "core/fault.hpp"
#include "core/runtime_impl.hpp"

namespace rma::am {
namespace {

// The flags the caller asked for, made consistent with what the op answers: the unlock of a
// non-fetching op is answered with an ack; a fetching op's reply is it.
std::uint16_t completion_flags(std::uint16_t flags, bool response) {
  if ((flags & progress::flag_unlock) && !response) flags |= progress::flag_ack_req;
  if ((flags & progress::flag_ack_req) && response)
    flags &= static_cast<std::uint16_t>(~progress::flag_ack_req);
  return flags;
}

// What an eager op's packet carries after its header, and how: the origin's data stays where
// it is until sent (put, accumulate: `done` is told when it left), the op's own copy of its
// operands (fetch_and_op, compare_and_swap), or nothing (get).
OpPayload eager_payload(AmOp& a) {
  const core::RmaOp& op = a.op;
  const auto* data = static_cast<const std::byte*>(op.origin);
  OpPayload p;
  switch (op.kind) {
    case PacketType::put:
    case PacketType::accumulate:
      p.bytes = {data, op.bytes()};
      p.done = &a;
      break;
    case PacketType::get_accumulate:
      if (op.op != Op::no_op) p.bytes = {data, op.bytes()};
      break;
    case PacketType::fetch_and_op:
      p.bytes = {a.operands.data(), size_of(op.dtype)};
      break;
    case PacketType::compare_and_swap:
      p.bytes = {a.operands.data(), 2 * size_of(op.dtype)};
      break;
    default:  // get
      p.by_ref = false;
      break;
  }
  return p;
}

}  // namespace

void AmWin::issue_batch(int t, std::uint16_t first_flags, std::uint16_t last_flags,
                        std::uint32_t seq, std::uint16_t every_flags) {
  AmTarget& T = t_[static_cast<std::size_t>(t)];
  // Gets go last: the reply to the last one is then the acknowledgement. MPI leaves ops of
  // one epoch unordered (accumulates aside, and get is not one), so this is allowed.
  if (!core::fault(core::Fault::get_not_last))
    T.queue.move_to_back([](const AmOp* o) { return o->op.kind == PacketType::get; });
  T.batch.splice(T.queue);
  T.queue_bytes = 0;
  T.batch_first_flags = first_flags;
  T.batch_last_flags = last_flags;
  T.batch_seq = seq;
  T.batch_every_flags = every_flags;
  pump(t);
}

void AmWin::pump(int t) {
  AmTarget& T = t_[static_cast<std::size_t>(t)];
  while (!T.batch.empty() && !T.blocked_on_cts) {
    AmOp* op = T.batch.pop_front();
    auto flags = static_cast<std::uint16_t>(T.batch_first_flags | T.batch_every_flags);
    T.batch_first_flags = 0;
    if (T.batch.empty()) {
      flags |= T.batch_last_flags;
      send_op(t, op, flags, T.batch_seq, T.batch_note);
      T.batch_note.clear();
    } else {
      send_op(t, op, flags, T.batch_seq);
    }
    if (op->rndv) T.blocked_on_cts = true;
  }
}

void AmWin::send_op(int t, AmOp* a, std::uint16_t flags, std::uint32_t seq,
                    std::span<const std::uint32_t> note) {
  const core::RmaOp& op = a->op;
  const bool response = op.has_response();
  flags = completion_flags(flags, response);
  progress::PacketHeader h = op_header(*a, seq);
  count_issued(t, *a, flags);
  if (response) expect_response(*a, h);

  OpPayload payload;
  if (a->rndv) {
    // The data waits for the target's cts (on_cts), and is then sent in fragments.
    flags |= progress::flag_rndv;
    a->st.awaiting_cts = true;
    waiting_[a->st.cookie] = a;
    payload.by_ref = false;
  } else {
    payload = eager_payload(*a);
  }
  if (op.has_target_layout()) [[unlikely]] {
    h.flags = flags | progress::flag_layout;
    send_layout_op(t, h, op, payload, seq, note);
    return;
  }
  h.flags = flags;
  send_with_note(t, h, payload, seq, note);
}

// The header of an op's packet; the op gets its cookie (how its reply, ack or cts finds it).
progress::PacketHeader AmWin::op_header(AmOp& a, std::uint32_t seq) {
  const core::RmaOp& op = a.op;
  progress::PacketHeader h = progress::make_header(op.kind);
  h.win = w_.id;
  h.dtype = static_cast<std::uint8_t>(op.dtype);
  h.op = static_cast<std::uint8_t>(op.op);
  h.disp = op.disp;
  h.count = op.count;
  h.seq = seq;
  a.st.cookie = next_cookie_++;
  h.cookie = a.st.cookie;
  return h;
}

// What the target now owes for this op: its local completion, an ack when one is asked for,
// and whether it still counts as issued with no completion asked for (unacked).
void AmWin::count_issued(int t, const AmOp& a, std::uint16_t flags) {
  AmTarget& T = t_[static_cast<std::size_t>(t)];
  const bool response = a.op.has_response();
  if (flags & (progress::flag_lock_shared | progress::flag_lock_exclusive))
    T.lock_op_cookie = a.st.cookie;
  ++T.local_pending;
  const bool completes = flags & (progress::flag_unlock | progress::flag_ack_req);
  if (flags & progress::flag_ack_req) ++T.acks_pending;
  if (completes || (response && (flags & progress::flag_unlock)))
    T.unacked = 0;
  else if (!response)
    ++T.unacked;
}

// A fetching op waits for its reply by cookie; a reply larger than the eager limit streams
// straight into the result buffer, under the bulk id the header tells the target. So does a
// rendezvous get_accumulate's, fragment by fragment: a layout op goes by rendezvous a
// prefix's length below the limit. The result buffer is the transfer's destination, so a
// streamed reply may come in one copy (bulk.hpp).
void AmWin::expect_response(AmOp& a, progress::PacketHeader& h) {
  waiting_[a.st.cookie] = &a;
  const std::size_t bytes = a.op.bytes();
  if (bytes <= w_.rt.eager_limit() && !a.rndv) return;
  AmOp* op = &a;
  // A pair's padding is not written, so its bytes cannot land in one copy.
  auto* dest = core::has_padding(a.op.dtype) ? nullptr : static_cast<std::byte*>(a.op.result);
  a.st.response_bulk = w_.rt.bulk().expect(
      bytes,
      [op](std::uint64_t off, std::span<const std::byte> d) {
        core::copy_data(static_cast<std::byte*>(op->op.result) + off, d.data(), d.size(),
                        op->op.dtype, off);
      },
      [this, op] {
        waiting_.erase(op->st.cookie);
        op->st.response_done = true;
        on_local_complete(op);
      },
      dest);
  h.aux = a.st.response_bulk;
}

// A derived-type op: prefix (and description), then the data, then a fence note, copied
// into one packet; the note goes on its own when it does not fit.
void AmWin::send_layout_op(int t, const progress::PacketHeader& h, const core::RmaOp& op,
                           const OpPayload& payload, std::uint32_t seq,
                           std::span<const std::uint32_t> note) {
  std::vector<std::byte> all = layout_prefix(t, op);
  all.insert(all.end(), payload.bytes.begin(), payload.bytes.end());
  const auto nb = std::as_bytes(note);
  const bool note_fits = !note.empty() && all.size() + nb.size() <= e_.max_payload();
  if (note_fits) all.insert(all.end(), nb.begin(), nb.end());
  e_.send(t, h, all);
  if (payload.done) payload.done->sent();  // copied: the origin's buffer is free again
  if (!note.empty() && !note_fits) send_note(t, seq, note);
}

// A fence note rides at the end of the payload when both fit one packet; else it goes on its
// own (am_fence.cpp reads it back from what follows the op's own payload).
void AmWin::send_with_note(int t, const progress::PacketHeader& h, const OpPayload& payload,
                           std::uint32_t seq, std::span<const std::uint32_t> note) {
  if (!note.empty()) {
    const auto nb = std::as_bytes(note);
    if (payload.bytes.size() + nb.size() <= e_.max_payload()) {
      std::vector<std::byte> both(payload.bytes.begin(), payload.bytes.end());
      both.insert(both.end(), nb.begin(), nb.end());
      e_.send(t, h, both);
      if (payload.done) payload.done->sent();  // copied: the origin's buffer is free again
      return;
    }
  }
  if (payload.by_ref)
    e_.send_ref(t, h, payload.bytes, payload.done);
  else
    e_.send(t, h);
  if (!note.empty()) send_note(t, seq, note);
}

void AmWin::send_control(int t, PacketType type, std::uint16_t flags, std::uint32_t seq) {
  AmTarget& T = t_[static_cast<std::size_t>(t)];
  progress::PacketHeader h = progress::make_header(type);
  h.win = w_.id;
  h.flags = flags;
  h.seq = seq;
  if (flags & progress::flag_ack_req) {
    ++T.acks_pending;
    T.unacked = 0;
  }
  e_.send(t, h);
}

}  // namespace rma::am
