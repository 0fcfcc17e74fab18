// The fabric direct path's data slots (see fabric_win.hpp): native RMA and atomics on
// registered memory, or the am slot for what the provider cannot do natively; and the
// direct table they complete.
#include "fabric/fabric_win.hpp"

#include <rdma/fi_atomic.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include <cstring>
#include <vector>

#include "am/am_ops.hpp"
#include "core/element_copy.hpp"
#include "core/layout.hpp"
#include "core/runtime_impl.hpp"
#include "core/window_ops.hpp"
#include "fabric/fabric_backend.hpp"

namespace rma::fabric {
namespace {

using core::Call;
using core::RmaOp;

void count(Call& c, DirectOp d) {
  c.w.engine.count_direct(c.w.id, d);
}

bool accumulate_like(PacketType k) {
  return k == PacketType::accumulate || k == PacketType::get_accumulate ||
         k == PacketType::fetch_and_op || k == PacketType::compare_and_swap;
}

DirectOp direct_kind(PacketType k) {
  switch (k) {
    case PacketType::put:
      return DirectOp::put;
    case PacketType::get:
      return DirectOp::get;
    case PacketType::accumulate:
      return DirectOp::accumulate;
    case PacketType::get_accumulate:
      return DirectOp::get_accumulate;
    case PacketType::fetch_and_op:
      return DirectOp::fetch_and_op;
    default:
      return DirectOp::compare_and_swap;
  }
}

// Accumulate-style ops from one origin to one target apply in program order (MPI's default
// accumulate_ordering). A provider that orders atomics keeps a native op behind the earlier
// native ones; otherwise, and always for an op that goes to the am slots, the earlier ones
// complete first.
Status order_accumulates(Call& c, int t, bool native) {
  FabricWin& f = fabric_win(c);
  if (!c.w.info.ordered_accumulates || f.acc_in_flight[static_cast<std::size_t>(t)] == 0 ||
      (native && f.transport.endpoint().ordered_atomics()))
    return Status::ok();
  return wait_for(c, "accumulate ordering: earlier accumulates complete", t,
                  [&] { return f.acc_in_flight[static_cast<std::size_t>(t)] == 0; });
}

// The am table's slot serves the op; it is complete (remotely) when this returns, so nothing of
// the am protocol is pending when a direct synchronization runs.
Status fallback(Call& c, RmaOp& op) {
  RMA_TRY(ensure_access(c, op.target));
  if (accumulate_like(op.kind)) RMA_TRY(order_accumulates(c, op.target, false));
  count(c, DirectOp::am_fallback);
  const core::WindowOps& am_table = am::am_ops();
  RMA_TRY((am_table.*core::op_slot(op.kind))(c, op));
  if (op.target == c.w.rank()) return Status::ok();  // applied at once
  return am_table.flush(c, op.target);
}

// Posts one native op: `issue` is retried while the provider's queue is full.
template <class Issue>
Status post(Call& c, const RmaOp& op, NativeOp* n, Issue&& issue) {
  FabricWin& f = fabric_win(c);
  const auto t = static_cast<std::size_t>(op.target);
  // The engine may evaluate a wait's condition again after it held: issue only once.
  ssize_t rc = -FI_EAGAIN;
  Status s = wait_for(c, "room in the provider's queue", op.target, [&] {
    if (rc == -FI_EAGAIN) rc = issue(n);
    return rc != -FI_EAGAIN;
  });
  if (!s || rc != 0) {
    f.give_back(n);
    if (!s) return s;
    return {ErrorClass::other, std::string(to_string(op.kind)) + " to rank " +
                                   std::to_string(op.target) + ": " +
                                   error_text("native operation", static_cast<int>(rc))};
  }
  ++f.in_flight[t];
  ++f.total_in_flight;
  if (n->accumulate) ++f.acc_in_flight[t];
  count(c, direct_kind(op.kind));
  return Status::ok();
}

Result<NativeOp*> new_op(Call& c, const RmaOp& op) {
  FabricWin& f = fabric_win(c);
  if (f.total_in_flight >= f.max_in_flight)
    RMA_TRY(wait_for(c, "completions of earlier native operations", -2,
                     [&] { return f.total_in_flight < f.max_in_flight; }));
  NativeOp* n = f.take_op();
  n->peer = op.target;
  n->accumulate = accumulate_like(op.kind);
  n->derived = op.derived;
  return n;
}

fi_msg_rma rma_msg(FabricWin& f, const RmaOp& op, iovec& iov, void** desc, fi_rma_iov& rma,
                   NativeOp* n) {
  const FabricWin::Peer& p = f.peers[static_cast<std::size_t>(op.target)];
  rma = fi_rma_iov{p.addr + op.disp, op.bytes(), p.key};
  fi_msg_rma m{};
  m.msg_iov = &iov;
  m.desc = desc;
  m.iov_count = 1;
  m.addr = f.transport.address(op.target);
  m.rma_iov = &rma;
  m.rma_iov_count = 1;
  m.context = &n->fi;
  return m;
}

bool too_large(FabricWin& f, const RmaOp& op) {
  return op.bytes() > f.transport.endpoint().info().ep_attr->max_msg_size;
}

// put and get: one native call each (unless larger than the provider carries in one).
Status native_rma(Call& c, RmaOp& op, bool write) {
  FabricWin& f = fabric_win(c);
  if (too_large(f, op)) return fallback(c, op);
  RMA_TRY(ensure_access(c, op.target));
  auto n = new_op(c, op);
  if (!n) return n.status();
  n.value()->request = op.request;
  return post(c, op, n.value(), [&](NativeOp* x) {
    iovec iov{write ? const_cast<void*>(op.origin) : op.result, op.bytes()};
    void* desc = nullptr;
    fi_rma_iov rma;
    const fi_msg_rma m = rma_msg(f, op, iov, &desc, rma, x);
    fid_ep* ep = f.transport.endpoint().ep();
    // A write asks for delivery complete: the completion means the data is in the target's
    // memory, which is what flush, unlock, complete and fence wait for.
    return write ? fi_writemsg(ep, &m, FI_COMPLETION | FI_DELIVERY_COMPLETE)
                 : fi_readmsg(ep, &m, FI_COMPLETION);
  });
}

// A derived-type put or get taken whole (core/window_layout.cpp; its origin side is
// contiguous): the target's runs go up to the provider's rma_iov_limit at a time in one
// fi_writemsg or fi_readmsg, against the matching stretch of the packed stream. A request
// gets a part per call and completes with the last.
Status native_layout(Call& c, RmaOp& op, bool write) {
  FabricWin& f = fabric_win(c);
  RMA_TRY(ensure_access(c, op.target));
  const fi_info& info = f.transport.endpoint().info();
  const std::size_t limit = std::max<std::size_t>(1, info.tx_attr->rma_iov_limit);
  const std::size_t max_bytes = info.ep_attr->max_msg_size;
  const FabricWin::Peer& p = f.peers[static_cast<std::size_t>(op.target)];
  auto* stream = static_cast<std::byte*>(write ? const_cast<void*>(op.origin) : op.result);
  std::vector<fi_rma_iov> runs;
  std::uint64_t first = 0, bytes = 0;  // the batch's stretch of the stream
  auto issue = [&]() -> Status {
    auto n = new_op(c, op);
    if (!n) return n.status();
    if (op.request) {
      auto part = std::make_shared<core::RequestState>();
      part->win = &c.w;
      part->target = op.target;
      op.request->parts.push_back(part);
      n.value()->request = std::move(part);
    }
    RMA_TRY(post(c, op, n.value(), [&](NativeOp* x) {
      iovec iov{stream + first, bytes};
      void* desc = nullptr;
      fi_msg_rma m{};
      m.msg_iov = &iov;
      m.desc = &desc;
      m.iov_count = 1;
      m.addr = f.transport.address(op.target);
      m.rma_iov = runs.data();
      m.rma_iov_count = runs.size();
      m.context = &x->fi;
      fid_ep* ep = f.transport.endpoint().ep();
      return write ? fi_writemsg(ep, &m, FI_COMPLETION | FI_DELIVERY_COMPLETE)
                   : fi_readmsg(ep, &m, FI_COMPLETION);
    }));
    runs.clear();
    bytes = 0;
    return Status::ok();
  };
  Status st;
  core::for_each_run(
      op.derived->target, 0, op.bytes(), core::RunBytes::data,
      [&](std::int64_t at, std::uint64_t pos, std::uint64_t n) {
        if (!st) return;
        // One local iov per call: a gap in the stream (a pair's padding) starts a new call.
        if (runs.size() == limit || (bytes && (bytes + n > max_bytes || pos != first + bytes)))
          st = issue();
        if (runs.empty()) first = pos;
        runs.push_back(
            fi_rma_iov{p.addr + static_cast<std::uint64_t>(static_cast<std::int64_t>(op.disp) + at),
                       n, p.key});
        bytes += n;
      });
  if (st && !runs.empty()) st = issue();
  return st;
}

// A pair with padding goes by packets: one native write or read moves every byte of its
// range, and the padding must keep what it held (core/element_copy.hpp).
Status direct_put(Call& c, RmaOp& op) {
  if (op.has_target_layout()) [[unlikely]]
    return native_layout(c, op, true);
  if (core::has_padding(op.dtype)) [[unlikely]]
    return fallback(c, op);
  if (keep_in_deferred_epoch(c, op)) return Status::ok();
  return native_rma(c, op, true);
}
Status direct_get(Call& c, RmaOp& op) {
  if (op.has_target_layout()) [[unlikely]]
    return native_layout(c, op, false);
  if (core::has_padding(op.dtype)) [[unlikely]]
    return fallback(c, op);
  if (keep_in_deferred_epoch(c, op)) return Status::ok();
  return native_rma(c, op, false);
}

// The native kind of an accumulate-style op, or nullopt when it must fall back: the
// provider lacks the (op, dtype), the target element is misaligned, or the op is larger
// than one native call carries and completes a request.
std::optional<AtomicKind> native_kind(FabricWin& f, const RmaOp& op) {
  AtomicKind k = AtomicKind::accumulate;
  Op o = op.op;
  if (op.kind == PacketType::compare_and_swap) {
    k = AtomicKind::compare;
    o = Op::replace;
  } else if (op.kind != PacketType::accumulate) {
    k = AtomicKind::fetch;
  }
  const std::size_t max = f.atomics.max_count(k, o, op.dtype);
  if (max == 0) return std::nullopt;
  const FabricWin::Peer& p = f.peers[static_cast<std::size_t>(op.target)];
  if ((p.vaddr + op.disp) % size_of(op.dtype) != 0) return std::nullopt;
  if (op.count > max && op.request) return std::nullopt;
  return k;
}

// One native atomic call over elements [first, first + count) of the op.
ssize_t issue_atomic(FabricWin& f, const RmaOp& op, AtomicKind k, NativeOp* n, std::size_t first,
                     std::size_t count) {
  const std::size_t es = size_of(op.dtype);
  const FabricWin::Peer& p = f.peers[static_cast<std::size_t>(op.target)];
  const auto* origin = static_cast<const std::byte*>(op.origin);
  auto* result = static_cast<std::byte*>(op.result);
  void* operand = op.kind == PacketType::fetch_and_op || op.kind == PacketType::compare_and_swap
                      ? static_cast<void*>(n->operands.data())
                  : origin ? const_cast<std::byte*>(origin + first * es)
                           : static_cast<void*>(result + first * es);  // no_op: ignored
  fi_ioc ioc{operand, count};
  void* desc = nullptr;
  fi_rma_ioc rioc{p.addr + op.disp + first * es, count, p.key};
  fi_msg_atomic m{};
  m.msg_iov = &ioc;
  m.desc = &desc;
  m.iov_count = 1;
  m.addr = f.transport.address(op.target);
  m.rma_iov = &rioc;
  m.rma_iov_count = 1;
  m.datatype = to_fi_datatype(op.dtype);
  m.op = *to_fi_op(k == AtomicKind::compare ? Op::replace : op.op, k);
  m.context = &n->fi;
  fid_ep* ep = f.transport.endpoint().ep();
  fi_ioc res{result ? result + first * es : nullptr, count};
  void* rdesc = nullptr;
  switch (k) {
    case AtomicKind::accumulate:
      return fi_atomicmsg(ep, &m, FI_COMPLETION | FI_DELIVERY_COMPLETE);
    case AtomicKind::fetch:
      return fi_fetch_atomicmsg(ep, &m, &res, &rdesc, 1, FI_COMPLETION);
    case AtomicKind::compare: {
      fi_ioc cmp{n->operands.data() + es, 1};
      void* cdesc = nullptr;
      return fi_compare_atomicmsg(ep, &m, &cmp, &cdesc, 1, &res, &rdesc, 1, FI_COMPLETION);
    }
  }
  return -FI_EINVAL;
}

Status atomic(Call& c, RmaOp& op) {
  FabricWin& f = fabric_win(c);
  const auto kind = native_kind(f, op);
  if (!kind) return fallback(c, op);
  RMA_TRY(ensure_access(c, op.target));
  RMA_TRY(order_accumulates(c, op.target, true));
  const std::size_t max =
      f.atomics.max_count(*kind, *kind == AtomicKind::compare ? Op::replace : op.op, op.dtype);
  const std::size_t es = size_of(op.dtype);
  for (std::size_t first = 0; first < op.count; first += max) {
    const std::size_t n_el = std::min(max, op.count - first);
    auto n = new_op(c, op);
    if (!n) return n.status();
    NativeOp* x = n.value();
    if (op.kind == PacketType::fetch_and_op && op.origin)
      std::memcpy(x->operands.data(), op.origin, es);
    if (op.kind == PacketType::compare_and_swap) {
      std::memcpy(x->operands.data(), op.origin, es);
      std::memcpy(x->operands.data() + es, op.compare, es);
    }
    x->request = op.request;
    RMA_TRY(
        post(c, op, x, [&](NativeOp* y) { return issue_atomic(f, op, *kind, y, first, n_el); }));
  }
  return Status::ok();
}

Status direct_accumulate(Call& c, RmaOp& op) {
  if (op.op == Op::no_op) {  // changes nothing: only the epoch rules apply
    RMA_TRY(ensure_access(c, op.target));
    count(c, DirectOp::accumulate);
    if (op.request) op.request->done = true;
    return Status::ok();
  }
  return atomic(c, op);
}

}  // namespace

// --- the table --------------------------------------------------------------------------------

namespace {
Status direct_atomic(Call& c, RmaOp& op) {
  return atomic(c, op);
}
}  // namespace

const core::WindowOps& direct_ops() {
  static const core::WindowOps table = [] {
    core::WindowOps t = direct_sync_table(am::am_ops());
    t.name = "fabric.direct";
    t.direct_layouts = true;  // a layout's runs go rma_iov_limit at a time (native_layout)
    t.put = direct_put;
    t.get = direct_get;
    t.accumulate = direct_accumulate;
    t.get_accumulate = direct_atomic;
    t.fetch_and_op = direct_atomic;
    t.compare_and_swap = direct_atomic;
    return t;
  }();
  return table;
}

}  // namespace rma::fabric
