// The shm backend's direct table (see shm_window.hpp): every slot of am_ops() the backend
// serves, on mapped memory and shared words. The generic layer has already checked
// arguments, ranges and epochs.
#include "shm/shm_window.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <type_traits>

#include "am/am_ops.hpp"
#include "core/direct_sync.hpp"
#include "core/fault.hpp"
#include "core/layout.hpp"
#include "core/reduce.hpp"
#include "core/runtime_impl.hpp"
#include "core/window_ops.hpp"
#include "rma/dtype_visit.hpp"
#include "shm/shm_backend.hpp"
#include "shm/shm_copy.hpp"

namespace rma::shm {
namespace {

using core::Call;
using core::RmaOp;

constexpr std::size_t align64(std::size_t n) { return (n + 63) & ~std::size_t{63}; }

ShmWin& shm(Call& c) { return static_cast<ShmWin&>(*c.w.backend); }
progress::Engine& engine(Call& c) { return c.w.engine; }
void count(Call& c, DirectOp d, std::uint64_t n = 1) { engine(c).count_direct(c.w.id, d, n); }

template <class Pred>
Status wait_for(Call& c, const char* what, int peer, Pred&& pred) {
  return core::wait_sync(c, what, peer, pred);
}

void wake(Call& c, int rank) {
  if (rank != c.w.rank()) engine(c).transport().wake(rank);
}

void wake_all(Call& c) {
  for (int r = 0; r < c.w.ranks(); ++r) wake(c, r);
}

// --- passive-target locks on shared words -------------------------------------------------------

// Rings the ranks blocked on t's lock; the waiter count makes the common case one load.
void wake_lock_waiters(Call& c, int t) {
  ShmWin& s = shm(c);
  if (s.lock(t).waiting.load(std::memory_order_seq_cst) == 0) return;
  for (int r = 0; r < c.w.ranks(); ++r)
    if (s.lock_waiting(t, r).load(std::memory_order_seq_cst)) wake(c, r);
}

Status acquire(Call& c, int t, bool exclusive) {
  ShmWin& s = shm(c);
  const int me = c.w.rank();
  PassiveLock& l = s.lock(t);
  const std::uint64_t ticket = l.take_ticket();
  if (!l.try_enter(ticket, exclusive)) {
    // Announce the wait before re-checking, so a holder leaving now either sees it or is seen.
    l.waiting.fetch_add(1, std::memory_order_seq_cst);
    s.lock_waiting(t, me).store(1, std::memory_order_seq_cst);
    // try_enter changes the lock when it succeeds, and a wait may evaluate its condition
    // more than once: remember the success.
    bool entered = false;
    Status st = wait_for(c, "passive lock on shared words", t, [&] {
      return entered || (entered = l.try_enter(ticket, exclusive));
    });
    s.lock_waiting(t, me).store(0, std::memory_order_seq_cst);
    l.waiting.fetch_sub(1, std::memory_order_seq_cst);
    if (!st) return st;
  }
  s.held[static_cast<std::size_t>(t)].store(
      exclusive ? ShmWin::Held::exclusive : ShmWin::Held::shared, std::memory_order_relaxed);
  count(c, DirectOp::sync_word);
  wake_lock_waiters(c, t);  // the head moved on: a shared request behind may enter too
  return Status::ok();
}

void release(Call& c, int t) {
  ShmWin& s = shm(c);
  auto& h = s.held[static_cast<std::size_t>(t)];
  const ShmWin::Held was = h.load(std::memory_order_relaxed);
  if (was == ShmWin::Held::shared || was == ShmWin::Held::exclusive) {
    s.lock(t).leave(was == ShmWin::Held::exclusive);
    count(c, DirectOp::sync_word);
    wake_lock_waiters(c, t);
  }
  h.store(ShmWin::Held::none, std::memory_order_relaxed);
}

// --- access: an op may touch the target's memory only once its exposure has begun ---------------

Status ensure_access(Call& c, int t) {
  ShmWin& s = shm(c);
  const auto ti = static_cast<std::size_t>(t);
  switch (c.w.epochs.access()) {
    case core::Access::pscw:
      return core::await_post(c, t);
    case core::Access::lock_all:
      if (s.held[ti].load(std::memory_order_relaxed) == ShmWin::Held::none) {
        if (s.lock_all_nocheck) s.held[ti].store(ShmWin::Held::nocheck, std::memory_order_relaxed);
        else return acquire(c, t, false);
      }
      return Status::ok();
    default:  // fence: the fence was a barrier; lock: taken at lock()
      return Status::ok();
  }
}

std::byte* target_address(Call& c, const RmaOp& op) {
  return shm(c).peers[static_cast<std::size_t>(op.target)].base + op.disp;
}

void finish(const RmaOp& op) {
  if (op.request) op.request->done = true;
}

// `n` runs of N bytes, `stride` apart at `far`, to or from the packed stream at `near`: a
// copy of known size the compiler inlines, where a memcpy call per 64-byte run would cost
// more than the copy.
template <std::size_t N>
void copy_runs(bool put, std::byte* far, std::int64_t stride, std::byte* near, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i, far += stride, near += N) {
    if (put) std::memcpy(far, near, N);
    else std::memcpy(near, far, N);
  }
}

// One instance of a type whose runs have one length and one stride; false when its run
// length has no inlined loop.
bool copy_uniform(bool put, const Datatype& t, std::byte* mem, std::byte* stream) {
  std::byte* far = mem + t.blocks()[0].offset;
  const std::int64_t s = t.uniform_stride();
  const std::uint64_t n = t.blocks().size();
  switch (t.uniform_bytes()) {
    case 8: copy_runs<8>(put, far, s, stream, n); return true;
    case 16: copy_runs<16>(put, far, s, stream, n); return true;
    case 32: copy_runs<32>(put, far, s, stream, n); return true;
    case 64: copy_runs<64>(put, far, s, stream, n); return true;
    case 128: copy_runs<128>(put, far, s, stream, n); return true;
    default: return false;
  }
}

// A derived-type put or get taken whole (core/window_layout.cpp): copied run by run between
// the packed stream and the peer's memory, then the result unpacked at once.
Status direct_layout(Call& c, RmaOp& op) {
  RMA_TRY(ensure_access(c, op.target));
  std::byte* mem = target_address(c, op);
  const bool put = op.kind == PacketType::put;
  const auto* in = static_cast<const std::byte*>(op.origin);
  auto* out = static_cast<std::byte*>(op.result);
  const Layout& l = op.target_layout;
  auto* stream = put ? const_cast<std::byte*>(in) : out;
  if (!l.type) {  // contiguous there: only the result side was packed
    copy_bytes(out, mem, op.bytes());
  } else if (l.count == 1 && l.type->uniform_bytes() && copy_uniform(put, *l.type, mem, stream)) {
    // done: the common strided case
  } else {
    core::for_each_run(op.target_layout, 0, op.bytes(),
                       [&](std::int64_t at, std::uint64_t pos, std::uint64_t n) {
                         if (put) std::memcpy(mem + at, in + pos, n);
                         else std::memcpy(out + pos, mem + at, n);
                       });
  }
  if (op.unpack_to) core::unpack(op.unpack, op.packed_result->data(), static_cast<std::byte*>(op.unpack_to));
  count(c, put ? DirectOp::put : DirectOp::get);
  finish(op);
  return Status::ok();
}

Status direct_put(Call& c, RmaOp& op) {
  if (op.target_layout.type) [[unlikely]]
    return direct_layout(c, op);
  RMA_TRY(ensure_access(c, op.target));
  const std::size_t bytes = op.bytes();
  copy_bytes(target_address(c, op), op.origin,
             core::fault(core::Fault::put_short) && bytes ? bytes - 1 : bytes);
  count(c, DirectOp::put);
  finish(op);
  return Status::ok();
}

Status direct_get(Call& c, RmaOp& op) {
  if (op.target_layout.type || op.unpack_to) [[unlikely]]
    return direct_layout(c, op);
  RMA_TRY(ensure_access(c, op.target));
  copy_bytes(op.result, target_address(c, op), op.bytes());
  count(c, DirectOp::get);
  finish(op);
  return Status::ok();
}

// --- accumulate-style ops ----------------------------------------------------------------------

// One CPU instruction does op on an aligned element: integer sum and bitwise ops, replace.
// (no_op stays on the locked path: it must not read an element halfway through a locked
// update by an op that has no instruction.)
bool native(Op op, Dtype t) {
  if (is_pair(t)) return false;  // a pair is two words: updated under the region lock
  switch (op) {
    case Op::sum:
    case Op::band:
    case Op::bor:
    case Op::bxor:
      return !is_float(t);
    case Op::replace:
      return true;
    default:
      return false;
  }
}

template <class T>
void atomic_elements(Op op, std::byte* target, const std::byte* origin, std::byte* result,
                     std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    std::atomic_ref<T> a(*reinterpret_cast<T*>(target + i * sizeof(T)));
    T v;
    std::memcpy(&v, origin + i * sizeof(T), sizeof(T));
    T old{};
    if constexpr (std::is_integral_v<T>) {
      switch (op) {
        case Op::sum: old = a.fetch_add(v, std::memory_order_seq_cst); break;
        case Op::band: old = a.fetch_and(v, std::memory_order_seq_cst); break;
        case Op::bor: old = a.fetch_or(v, std::memory_order_seq_cst); break;
        case Op::bxor: old = a.fetch_xor(v, std::memory_order_seq_cst); break;
        default: old = a.exchange(v, std::memory_order_seq_cst); break;
      }
    } else {
      old = a.exchange(v, std::memory_order_seq_cst);  // replace: the only native float op
    }
    if (result) std::memcpy(result + i * sizeof(T), &old, sizeof(T));
  }
}

// Takes, in ascending order and once each, the stripe locks of every region the byte range
// [disp, disp+bytes) touches (an element across a region boundary takes both).
class StripeGuard {
 public:
  StripeGuard(ShmWin& s, int rank, std::size_t disp, std::size_t bytes) : s_(s), rank_(rank) {
    const std::size_t stripes = s.layout.stripes;
    const std::size_t first = disp / s.region_size;
    const std::size_t last = (disp + std::max<std::size_t>(bytes, 1) - 1) / s.region_size;
    if (last - first + 1 >= stripes) {
      for (std::size_t i = 0; i < stripes; ++i) taken_.push_back(i);
    } else {
      for (std::size_t r = first; r <= last; ++r) taken_.push_back(r % stripes);
      std::sort(taken_.begin(), taken_.end());
      taken_.erase(std::unique(taken_.begin(), taken_.end()), taken_.end());
    }
    for (std::size_t i : taken_) s_.stripe(rank_, i).lock();
  }
  ~StripeGuard() {
    for (auto it = taken_.rbegin(); it != taken_.rend(); ++it) s_.stripe(rank_, *it).unlock();
  }
  std::size_t count() const { return taken_.size(); }

 private:
  ShmWin& s_;
  int rank_;
  std::vector<std::size_t> taken_;
};

// Applies op at the target, returning old values into `result` when it is not null.
Status apply(Call& c, const RmaOp& given, const void* origin, void* result) {
  RmaOp op = given;
  op.op = core::faulty(op.op);
  std::byte* mem = target_address(c, op);
  const std::size_t es = size_of(op.dtype);
  const bool aligned = reinterpret_cast<std::uintptr_t>(mem) % es == 0;
  if (aligned && origin && native(op.op, op.dtype)) {
    visit_dtype(op.dtype, [&]<class T>() {
      if constexpr (!is_pair_v<T>)  // native() is false for pairs
        atomic_elements<T>(op.op, mem, static_cast<const std::byte*>(origin),
                           static_cast<std::byte*>(result), op.count);
    });
    count(c, DirectOp::cpu_atomic, op.count);
    return Status::ok();
  }
  StripeGuard guard(shm(c), op.target, op.disp, op.bytes());
  count(c, DirectOp::region_lock, guard.count());
  if (result) return core::fetch_reduce(op.op, op.dtype, mem, origin, result, op.count);
  return core::reduce(op.op, op.dtype, mem, origin, op.count);
}

Status direct_accumulate(Call& c, RmaOp& op) {
  RMA_TRY(ensure_access(c, op.target));
  if (op.op != Op::no_op) RMA_TRY(apply(c, op, op.origin, nullptr));
  count(c, DirectOp::accumulate);
  finish(op);
  return Status::ok();
}

Status direct_get_accumulate(Call& c, RmaOp& op) {
  RMA_TRY(ensure_access(c, op.target));
  RMA_TRY(apply(c, op, op.op == Op::no_op ? nullptr : op.origin, op.result));
  count(c, op.kind == PacketType::fetch_and_op ? DirectOp::fetch_and_op : DirectOp::get_accumulate);
  finish(op);
  return Status::ok();
}

Status direct_compare_and_swap(Call& c, RmaOp& op) {
  RMA_TRY(ensure_access(c, op.target));
  std::byte* mem = target_address(c, op);
  const std::size_t es = size_of(op.dtype);
  if (reinterpret_cast<std::uintptr_t>(mem) % es == 0) {
    visit_dtype(op.dtype, [&]<class T>() {
      if constexpr (std::is_integral_v<T>) {
        std::atomic_ref<T> a(*reinterpret_cast<T*>(mem));
        T expected, desired;
        std::memcpy(&expected, op.compare, sizeof(T));
        std::memcpy(&desired, op.origin, sizeof(T));
        a.compare_exchange_strong(expected, desired, std::memory_order_seq_cst);
        std::memcpy(op.result, &expected, sizeof(T));  // the old value either way
      }
    });
    count(c, DirectOp::cpu_atomic);
  } else {
    StripeGuard guard(shm(c), op.target, op.disp, es);
    count(c, DirectOp::region_lock, guard.count());
    RMA_TRY(core::compare_and_swap(op.dtype, mem, op.compare, op.origin, op.result));
  }
  count(c, DirectOp::compare_and_swap);
  finish(op);
  return Status::ok();
}

// --- the generic layer's primitives (core/direct_sync.hpp) ------------------------------------

Status barrier(Call& c) {
  SharedBarrier& b = shm(c).barrier();
  const std::uint32_t gen = b.generation.load(std::memory_order_seq_cst);
  count(c, DirectOp::sync_word);
  if (b.arrived.fetch_add(1, std::memory_order_seq_cst) + 1 == static_cast<std::uint32_t>(c.w.ranks())) {
    b.arrived.store(0, std::memory_order_seq_cst);
    b.generation.fetch_add(1, std::memory_order_seq_cst);
    wake_all(c);
    return Status::ok();
  }
  return wait_for(c, "fence: every rank at the barrier", -2,
                  [&] { return b.generation.load(std::memory_order_seq_cst) != gen; });
}

// A post or done is a counter the peer reads in place; the release publishes every store
// this rank made to the peer's memory before it.
void notify(Call& c, core::Signal kind, int peer) {
  ShmWin& s = shm(c);
  const int me = c.w.rank();
  auto& word = kind == core::Signal::post ? s.posts(peer, me) : s.dones(peer, me);
  word.fetch_add(1, std::memory_order_release);
  count(c, DirectOp::sync_word);
  wake(c, peer);
}

std::uint32_t received(core::Win& w, core::Signal kind, int peer) {
  auto& s = static_cast<ShmWin&>(*w.backend);
  const int me = w.rank();
  return (kind == core::Signal::post ? s.posts(me, peer) : s.dones(me, peer))
      .load(std::memory_order_acquire);
}

// --- passive target -----------------------------------------------------------------------------

Status direct_lock(Call& c, LockType type, int t, unsigned asserts) {
  if (asserts & assert_nocheck) {
    shm(c).held[static_cast<std::size_t>(t)].store(ShmWin::Held::nocheck, std::memory_order_relaxed);
    return Status::ok();
  }
  return acquire(c, t, type == LockType::exclusive);
}

Status direct_unlock(Call& c, int t) {
  release(c, t);
  return Status::ok();
}

Status direct_lock_all(Call& c, unsigned asserts) {
  ShmWin& s = shm(c);
  s.lock_all = true;
  s.lock_all_nocheck = asserts & assert_nocheck;
  return Status::ok();
}

Status direct_unlock_all(Call& c) {
  ShmWin& s = shm(c);
  for (int t = 0; t < c.w.ranks(); ++t) release(c, t);
  s.lock_all = false;
  return Status::ok();
}

// win.sync: a full barrier between this rank's accesses to window memory and everyone
// else's (MPI_Win_sync), as one sequentially consistent read-modify-write.
Status memory_barrier(Call& c) {
  shm(c).sync_word().fetch_add(1, std::memory_order_seq_cst);
  return Status::ok();
}
// No complete_ops primitive: an op is complete when its call returns (its copy is in the
// target's memory, and every synchronization a peer could rely on to read it — a lock
// release, a barrier, a done, a message — is a release operation that publishes it), so the
// generic flushes have nothing to wait for and a fence is only a barrier.
Status direct_request_wait(Call&, core::RequestState& r) { return r.status; }
Result<bool> direct_request_test(Call&, core::RequestState& r) {
  if (!r.status) return r.status;
  return true;  // direct ops complete in their call
}

Status direct_free(Call& c) { return barrier(c); }

core::WindowOps make_table() {
  core::DirectSync sync;
  sync.signals = core::SignalPath::shared_words;
  sync.notify = notify;
  sync.received = received;
  sync.barrier = barrier;
  core::WindowOps t = core::with_direct_sync(am::am_ops(), sync);
  t.name = "shm.direct";
  t.needs_engine_lock = false;
  t.direct_layouts = true;
  t.direct_unpacks = true;
  t.put = direct_put;
  t.get = direct_get;
  t.accumulate = direct_accumulate;
  t.get_accumulate = direct_get_accumulate;
  t.fetch_and_op = direct_get_accumulate;
  t.compare_and_swap = direct_compare_and_swap;
  t.lock = direct_lock;
  t.unlock = direct_unlock;
  t.lock_all = direct_lock_all;
  t.unlock_all = direct_unlock_all;
  t.sync = memory_barrier;
  t.request_wait = direct_request_wait;
  t.request_test = direct_request_test;
  t.free = direct_free;
  return t;
}

}  // namespace

const core::WindowOps& direct_ops() {
  static const core::WindowOps table = make_table();
  return table;
}

// --- layout of the control segment ----------------------------------------------------------------

// header: barrier, sync word; then per rank: passive lock, lock-waiting flags (one byte per
// rank), posts and dones (one word per rank each), stripe locks.
ControlLayout::ControlLayout(int n, std::size_t stripes_per_rank) : ranks(n), stripes(stripes_per_rank) {
  const auto un = static_cast<std::size_t>(n);
  block = align64(sizeof(PassiveLock) + align64(un) + 2 * align64(4 * un) + align64(4 * stripes));
  total = 128 + block * un;
}

namespace {
std::byte* block_of(ShmWin& s, int rank) {
  return static_cast<std::byte*>(s.control->data()) + 128 + s.layout.block * static_cast<std::size_t>(rank);
}
}  // namespace

SharedBarrier& ShmWin::barrier() { return *static_cast<SharedBarrier*>(control->data()); }
std::atomic<std::uint64_t>& ShmWin::sync_word() {
  return *reinterpret_cast<std::atomic<std::uint64_t>*>(static_cast<std::byte*>(control->data()) + 64);
}
PassiveLock& ShmWin::lock(int rank) { return *reinterpret_cast<PassiveLock*>(block_of(*this, rank)); }
std::atomic<std::uint8_t>& ShmWin::lock_waiting(int rank, int waiter) {
  return reinterpret_cast<std::atomic<std::uint8_t>*>(block_of(*this, rank) + sizeof(PassiveLock))[waiter];
}
std::atomic<std::uint32_t>& ShmWin::posts(int origin, int target) {
  const auto un = static_cast<std::size_t>(layout.ranks);
  return reinterpret_cast<std::atomic<std::uint32_t>*>(block_of(*this, origin) + sizeof(PassiveLock) +
                                                      align64(un))[target];
}
std::atomic<std::uint32_t>& ShmWin::dones(int target, int origin) {
  const auto un = static_cast<std::size_t>(layout.ranks);
  return reinterpret_cast<std::atomic<std::uint32_t>*>(block_of(*this, target) + sizeof(PassiveLock) +
                                                      align64(un) + align64(4 * un))[origin];
}
StripeLock& ShmWin::stripe(int rank, std::size_t i) {
  const auto un = static_cast<std::size_t>(layout.ranks);
  return reinterpret_cast<StripeLock*>(block_of(*this, rank) + sizeof(PassiveLock) + align64(un) +
                                       2 * align64(4 * un))[i];
}

Result<SharedRegion> ShmWin::shared_query(int rank) const {
  const PeerMemory& p = peers[static_cast<std::size_t>(rank)];
  if (!p.base && p.size)
    return Status{ErrorClass::rma_flavor,
                  "shared_query: rank " + std::to_string(rank) + "'s memory is not mapped here"};
  return SharedRegion{p.base, p.size, p.disp_unit, p.keeper};
}

void ShmWin::describe(WindowState& s) const {
  // This rank's lock word, as other ranks see it: the ticket queue and who is inside.
  if (control) {
    auto& self = const_cast<ShmWin&>(*this);
    std::string text;
    for (int r = 0; r < layout.ranks; ++r) {
      PassiveLock& l = self.lock(r);
      const auto next = l.next_ticket.load(), head = l.head.load();
      const auto readers = l.readers.load(), writer = l.writer.load(), waiting = l.waiting.load();
      if (next == 0 && readers == 0 && writer == 0) continue;
      text += (text.empty() ? "" : "; ") + std::string("rank ") + std::to_string(r) + ": tickets " +
              std::to_string(next) + ", head " + std::to_string(head) + ", readers " +
              std::to_string(readers) + ", writer " + std::to_string(writer) + ", waiting " +
              std::to_string(waiting);
    }
    s.lock_holders = text;
  }
  for (std::size_t t = 0; t < held.size(); ++t) {
    const Held h = held[t].load(std::memory_order_relaxed);
    if (h == Held::none) continue;
    TargetState ts;
    ts.target = static_cast<int>(t);
    ts.lock = h == Held::shared      ? "held shared (shared words)"
              : h == Held::exclusive ? "held exclusive (shared words)"
                                     : "nocheck";
    s.targets.push_back(ts);
  }
}

}  // namespace rma::shm
