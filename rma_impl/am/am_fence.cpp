// Fence on the am path, both protocols (docs/protocol.md, "Fence"). A closing fence must
// tell every rank how many origins send it ops in the epoch, so that it knows when it has
// all of them.
//
// ch3: first a reduce-scatter of 0/1 counts by recursive halving (`fence_count` packets),
// then the ops, the last to each target flagged `fence_last` — every rank has provably left
// the previous epoch once the exchange is done, so nothing is ever early.
//
// fewest: the ops go at once, each flagged `fence` with the epoch in `seq`, and the counts
// ride on them as a *note* at the end of the payload (or on a bare `fence_count` where no
// op goes that way). A target holds an op whose epoch it has not entered yet (it has not
// returned from the fence before) and applies it when it returns. Two exchanges:
//   messages — every rank but 0 tells rank 0 its targets (a `contribution` note, on its last
//              op to rank 0 if it has one); rank 0, once it has all, tells each rank its
//              `total` of origins (on its last op to that rank if it has one): 2(n-1) notes;
//   rounds   — every rank tells every other directly: its last op's `fence_last` mark, or
//              a `nothing` note: n(n-1) marks, one round.
// `auto` (the default) takes messages for n > 2 and rounds for n <= 2 (equal messages,
// one round fewer). Over the hold budget an origin does not send ahead: it waits until the
// target is provably in the epoch (messages: its own total has come, so every rank entered
// this fence; rounds: a packet of this epoch came from the target, which an `enter` note
// guarantees).
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "am/am_win.hpp"
#include "core/fault.hpp"
#include "core/runtime_impl.hpp"

namespace rma::am {
namespace {

// What a note says (its first word). contribution: the sender's targets follow; total: the
// number of origins the receiver waits for follows; nothing: the sender sends no op here;
// enter: the sender is in this fence, its ops follow later (over the hold budget).
enum FenceNote : std::uint32_t {
  note_contribution = 1,
  note_total = 2,
  note_nothing = 3,
  note_enter = 4
};
constexpr int kRoot = 0;

// The bytes of an op packet's own payload as AmWin::send_op builds it; a fence note follows
// them. SIZE_MAX for a count no conforming origin sends (the op is then dropped anyway).
std::size_t op_payload_bytes(const progress::PacketHeader& h) {
  if (h.dtype >= dtype_count || h.op >= op_count) return SIZE_MAX;
  const std::size_t es = size_of(static_cast<Dtype>(h.dtype));
  if (h.count > (std::uint64_t{1} << 48) / es) return SIZE_MAX;
  const bool rndv = h.flags & progress::flag_rndv;
  switch (h.type) {
    case PacketType::put:
    case PacketType::accumulate:
      return rndv ? 0 : h.count * es;
    case PacketType::get_accumulate:
      return rndv || static_cast<Op>(h.op) == Op::no_op ? 0 : h.count * es;
    case PacketType::fetch_and_op:
      return es;
    case PacketType::compare_and_swap:
      return 2 * es;
    case PacketType::get:
      return 0;
    default:
      return SIZE_MAX;
  }
}

}  // namespace

Status AmWin::fence(core::Call& c, unsigned asserts) {
  const std::uint32_t epoch = fence_epoch_;
  if (fence_open_ && !(asserts & assert_noprecede)) {
    if (w_.info.protocol == Protocol::fewest) {
      RMA_TRY(fence_fewest(c, epoch));
    } else {
      // Every rank learns how many origins will send it ops (a reduce-scatter of 0/1
      // counts), then each origin sends its ops, the last one to each target marked; a rank
      // is done when its ops left and all its origins' marks arrived.
      std::vector<std::uint32_t> counts(static_cast<std::size_t>(n_), 0);
      for (int t = 0; t < n_; ++t)
        if (t != me_ && !t_[static_cast<std::size_t>(t)].queue.empty())
          counts[static_cast<std::size_t>(t)] = 1;
      std::uint32_t origins = 0;
      RMA_TRY(exchange_counts(c, epoch, counts, origins));
      for (int t = 0; t < n_; ++t)
        if (t != me_ && !t_[static_cast<std::size_t>(t)].queue.empty())
          issue_batch(t, 0, progress::flag_fence_last, epoch);
      RMA_TRY(wait_for(c, "fence: ops sent and each origin's last op", -2, [&] {
        for (int t = 0; t < n_; ++t)
          if (t != me_ && (!batch_done(t) || t_[static_cast<std::size_t>(t)].local_pending))
            return false;
        return fence_in_[epoch].completed >= origins;
      }));
      fence_in_.erase(epoch);
    }
    RMA_TRY(take_error());
  }
  ++fence_epoch_;
  fence_open_ = !(asserts & assert_nosucceed);
  release_held_fence();  // this rank is now in the next epoch: what came for it applies
  return Status::ok();
}

// --- fewest ---------------------------------------------------------------------------------

bool AmWin::fence_by_rounds() const {
  switch (w_.info.fence_exchange) {
    case core::FenceExchange::rounds:
      return true;
    case core::FenceExchange::messages:
      return false;
    case core::FenceExchange::auto_:
      break;
  }
  return n_ <= 2;  // both cost the same there; rounds needs one round, messages two
}

void AmWin::issue_fence_batch(int t, std::uint32_t epoch, std::vector<std::uint32_t> note) {
  t_[static_cast<std::size_t>(t)].batch_note = std::move(note);
  issue_batch(t, 0, progress::flag_fence_last, epoch, progress::flag_fence);
}

void AmWin::send_note(int t, std::uint32_t epoch, std::span<const std::uint32_t> note) {
  progress::PacketHeader h = progress::make_header(PacketType::fence_count);
  h.win = w_.id;
  h.flags = progress::flag_fence;
  h.seq = epoch;
  e_.send(t, h, std::as_bytes(note));
}

Status AmWin::fence_fewest(core::Call& c, std::uint32_t epoch) {
  if (n_ == 1) return Status::ok();  // ops to itself were applied at the call
  const bool rounds = fence_by_rounds();
  FenceIn& f = fence_in_[epoch];
  std::vector<std::uint32_t> contribution{note_contribution};
  std::vector<char> deferred(static_cast<std::size_t>(n_), 0);
  auto has_ops = [&](int t) { return t != me_ && !t_[static_cast<std::size_t>(t)].queue.empty(); };
  // Sent ahead, a batch is held by a target still in the previous epoch: at most one
  // epoch's worth per origin (the origin left the previous fence, so the target entered it),
  // bounded by the hold budget.
  auto fits = [&](int t) { return queue_bytes(t) <= w_.info.hold_budget; };
  for (int t = 0; t < n_; ++t)
    if (has_ops(t)) contribution.push_back(static_cast<std::uint32_t>(t));

  if (rounds) {
    for (int t = 0; t < n_; ++t) {
      if (t == me_) continue;
      std::uint32_t note = 0;  // none: the ops go now, the last one carries the mark
      if (!has_ops(t))
        note = note_nothing;
      else if (!fits(t))
        note = note_enter;
      if (note == 0) {
        e_.count_epoch(true);
        issue_fence_batch(t, epoch, {});
      } else {
        if (note == note_enter) {
          e_.count_epoch(false);
          deferred[static_cast<std::size_t>(t)] = 1;
        }
        send_note(t, epoch, {&note, 1});
      }
    }
  } else if (me_ != kRoot) {
    bool carried = false;
    for (int t = 0; t < n_; ++t) {
      if (!has_ops(t)) continue;
      if (!fits(t)) {
        e_.count_epoch(false);
        deferred[static_cast<std::size_t>(t)] = 1;
        continue;
      }
      e_.count_epoch(true);
      issue_fence_batch(t, epoch, t == kRoot ? contribution : std::vector<std::uint32_t>{});
      carried = carried || t == kRoot;
    }
    if (!carried) send_note(kRoot, epoch, contribution);
  }

  bool scattered = false;
  Status s = wait_for(c, "fence: counts, ops sent and each origin's last op", -2, [&] {
    if (!rounds && me_ == kRoot && !scattered) {
      if (f.contributions < static_cast<std::uint32_t>(n_ - 1)) return false;
      f.totals.resize(static_cast<std::size_t>(n_), 0);
      for (std::size_t i = 1; i < contribution.size(); ++i) ++f.totals[contribution[i]];
      for (int t = 0; t < n_; ++t) {
        if (t == me_) continue;
        std::vector<std::uint32_t> note{note_total, f.totals[static_cast<std::size_t>(t)]};
        // Every rank is in this fence now (it sent its contribution from there): nothing
        // rank 0 sends is early.
        if (has_ops(t))
          issue_fence_batch(t, epoch, std::move(note));
        else
          send_note(t, epoch, note);
      }
      f.total = f.totals[static_cast<std::size_t>(me_)];
      f.has_total = true;
      scattered = true;
    }
    bool ready = true;
    for (int t = 0; t < n_; ++t) {
      auto& d = deferred[static_cast<std::size_t>(t)];
      if (!d) continue;
      const bool target_in = rounds ? f.heard.size() > static_cast<std::size_t>(t) &&
                                          f.heard[static_cast<std::size_t>(t)]
                                    : f.has_total;
      if (!target_in) {
        ready = false;
        continue;
      }
      issue_fence_batch(t, epoch, {});
      d = 0;
    }
    if (!ready) return false;
    for (int t = 0; t < n_; ++t)
      if (t != me_ && (!batch_done(t) || t_[static_cast<std::size_t>(t)].local_pending))
        return false;
    if (rounds) return f.completed + f.nothing >= static_cast<std::uint32_t>(n_ - 1);
    return f.has_total && f.completed >= f.total;
  });
  if (!s) return s;
  fence_in_.erase(epoch);
  return Status::ok();
}

// A packet flagged `fence`: its note (if any) is read at once, whatever epoch it is for; an
// op for an epoch this rank has not entered yet waits in held_fence_.
void AmWin::on_fence_packet(int src, const progress::PacketHeader& h,
                            std::span<const std::byte> payload) {
  FenceIn& f = fence_in_[h.seq];
  if (f.heard.empty()) f.heard.resize(static_cast<std::size_t>(n_), 0);
  f.heard[static_cast<std::size_t>(src)] = 1;
  if (h.type == PacketType::fence_count) {
    take_note(src, h.seq, payload);
    return;
  }
  std::size_t own = op_payload_bytes(h);
  if (own != SIZE_MAX && (h.flags & progress::flag_layout)) {  // the prefix comes first
    LayoutPrefix p;
    if (payload.size() < sizeof p) return;
    std::memcpy(&p, payload.data(), sizeof p);
    own += sizeof p + p.description_bytes;
  }
  if (own == SIZE_MAX) return;  // not an op a conforming origin sends
  if (payload.size() > own) {
    take_note(src, h.seq, payload.subspan(own));
    payload = payload.first(own);
  }
  if (h.seq > fence_epoch_ && !core::fault(core::Fault::held_op_early)) {
    held_fence_.emplace_back(src, HeldPacket{h, {payload.begin(), payload.end()}});
    return;
  }
  handle_op(src, h, payload);
}

void AmWin::take_note(int src, std::uint32_t epoch, std::span<const std::byte> note) {
  std::vector<std::uint32_t> w(note.size() / sizeof(std::uint32_t));
  if (w.empty()) return;
  std::memcpy(w.data(), note.data(), w.size() * sizeof(std::uint32_t));
  FenceIn& f = fence_in_[epoch];
  switch (w[0]) {
    case note_contribution:
      if (me_ != kRoot) return;
      ++f.contributions;
      f.totals.resize(static_cast<std::size_t>(n_), 0);
      for (std::size_t i = 1; i < w.size(); ++i)
        if (w[i] < static_cast<std::uint32_t>(n_)) ++f.totals[w[i]];
      return;
    case note_total:
      if (w.size() < 2 || src != kRoot) return;
      f.total = w[1];
      f.has_total = true;
      return;
    case note_nothing:
      ++f.nothing;
      return;
    default:  // note_enter: being heard from is all it says
      return;
  }
}

void AmWin::release_held_fence() {
  // Origins are at most one epoch ahead of this rank (they left the fence this rank just
  // returned from only after this rank entered it), so everything held is due now.
  std::deque<std::pair<int, HeldPacket>> due;
  due.swap(held_fence_);
  for (auto& [src, p] : due) {
    if (p.header.seq > fence_epoch_) {
      held_fence_.push_back({src, std::move(p)});
      continue;
    }
    handle_op(src, p.header, p.payload);
  }
}

// Recursive halving over the largest power of two p <= n ranks; the r = n - p ranks beyond
// fold their counts into a partner first and get their total back last. Messages:
// 2r + p log2 p (0 for one rank, 2 for two, 8 for four) — docs/message-counts.md.
Status AmWin::exchange_counts(core::Call& c, std::uint32_t epoch,
                              std::vector<std::uint32_t>& counts, std::uint32_t& mine) {
  int p = 1;
  while (p * 2 <= n_) p *= 2;
  const int rem = n_ - p;
  constexpr std::uint32_t kFold = 0, kReturn = 99;

  auto send_counts = [&](int dst, std::uint32_t step, const std::vector<std::uint32_t>& v) {
    progress::PacketHeader h = progress::make_header(PacketType::fence_count);
    h.win = w_.id;
    h.seq = epoch;
    h.aux = step;
    e_.send(dst, h, std::as_bytes(std::span(v)));
  };
  auto receive = [&](int src, std::uint32_t step, std::vector<std::uint32_t>& out) -> Status {
    RMA_TRY(wait_for(c, "fence: count exchange", src, [&] {
      return fence_in_[epoch].counts.count({step, src}) > 0;
    }));
    auto& m = fence_in_[epoch].counts;
    out = std::move(m[{step, src}]);
    m.erase({step, src});
    return Status::ok();
  };
  // The real ranks new rank j stands for.
  auto members = [&](int j, std::vector<int>& out) {
    if (j < rem) {
      out.push_back(2 * j);
      out.push_back(2 * j + 1);
    } else {
      out.push_back(j + rem);
    }
  };
  auto real_of = [&](int j) { return j < rem ? 2 * j + 1 : j + rem; };

  int newrank;
  if (me_ < 2 * rem) {
    if (me_ % 2 == 0) {
      send_counts(me_ + 1, kFold, counts);
      std::vector<std::uint32_t> back;
      RMA_TRY(receive(me_ + 1, kReturn, back));
      mine = back.empty() ? 0 : back[0];
      return Status::ok();
    }
    std::vector<std::uint32_t> folded;
    RMA_TRY(receive(me_ - 1, kFold, folded));
    for (std::size_t i = 0; i < counts.size() && i < folded.size(); ++i) counts[i] += folded[i];
    newrank = me_ / 2;
  } else {
    newrank = me_ - rem;
  }

  int lo = 0, hi = p;
  std::uint32_t step = 1;
  for (int mask = p / 2; mask >= 1; mask /= 2, ++step) {
    const int mid = lo + (hi - lo) / 2;
    const bool low_half = newrank < mid;
    const int keep_lo = low_half ? lo : mid, keep_hi = low_half ? mid : hi;
    const int give_lo = low_half ? mid : lo, give_hi = low_half ? hi : mid;
    std::vector<int> give, keep;
    for (int j = give_lo; j < give_hi; ++j) members(j, give);
    for (int j = keep_lo; j < keep_hi; ++j) members(j, keep);
    std::vector<std::uint32_t> out;
    for (int r : give) out.push_back(counts[static_cast<std::size_t>(r)]);
    const int partner = real_of(newrank ^ mask);
    send_counts(partner, step, out);
    std::vector<std::uint32_t> in;
    RMA_TRY(receive(partner, step, in));
    for (std::size_t i = 0; i < keep.size() && i < in.size(); ++i)
      counts[static_cast<std::size_t>(keep[i])] += in[i];
    lo = keep_lo;
    hi = keep_hi;
  }
  mine = counts[static_cast<std::size_t>(me_)];
  if (me_ < 2 * rem) send_counts(me_ - 1, kReturn, {counts[static_cast<std::size_t>(me_ - 1)]});
  return Status::ok();
}

}  // namespace rma::am
