// The shm direct path's data slots (see shm_win.hpp): put and get as copies into and out of
// the peer's mapped memory, accumulate-style ops as CPU atomics or under stripe locks. The
// generic layer has already checked arguments, ranges and epochs.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <type_traits>

#include "am/am_ops.hpp"
#include "core/element_copy.hpp"
#include "core/fault.hpp"
#include "core/layout.hpp"
#include "core/reduce.hpp"
#include "core/runtime_impl.hpp"
#include "core/window_ops.hpp"
#include "rma/dtype_visit.hpp"
#include "shm/shm_backend.hpp"
#include "shm/shm_copy.hpp"
#include "shm/shm_win.hpp"

namespace rma::shm {
namespace {

using core::Call;
using core::RmaOp;

std::byte* target_address(Call& c, const RmaOp& op) {
  return shm_win(c).peers[static_cast<std::size_t>(op.target)].base + op.disp;
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
    if (put)
      std::memcpy(far, near, N);
    else
      std::memcpy(near, far, N);
  }
}

// One instance of a type whose runs have one length and one stride; false when its run
// length has no inlined loop.
bool copy_uniform(bool put, const Datatype& t, std::byte* mem, std::byte* stream) {
  std::byte* far = mem + t.blocks()[0].offset;
  const std::int64_t s = t.uniform_stride();
  const std::uint64_t n = t.blocks().size();
  switch (t.uniform_bytes()) {
    case 8:
      copy_runs<8>(put, far, s, stream, n);
      return true;
    case 16:
      copy_runs<16>(put, far, s, stream, n);
      return true;
    case 32:
      copy_runs<32>(put, far, s, stream, n);
      return true;
    case 64:
      copy_runs<64>(put, far, s, stream, n);
      return true;
    case 128:
      copy_runs<128>(put, far, s, stream, n);
      return true;
    default:
      return false;
  }
}

// A derived-type put or get taken whole (core/window_layout.cpp): copied run by run between
// the packed stream and the peer's memory, then the result unpacked at once.
Status direct_layout(Call& c, RmaOp& op) {
  RMA_TRY(core::await_access(c, op.target));
  std::byte* mem = target_address(c, op);
  const bool put = op.kind == PacketType::put;
  const auto* in = static_cast<const std::byte*>(op.origin);
  auto* out = static_cast<std::byte*>(op.result);
  const core::DerivedParts& d = *op.derived;
  const Layout& l = d.target;
  auto* stream = put ? const_cast<std::byte*>(in) : out;
  if (!l.type) {  // contiguous there: only the result side was packed
    copy_bytes(out, mem, op.bytes());
  } else if (l.count == 1 && l.type->uniform_bytes() && !core::has_padding(*l.type) &&
             copy_uniform(put, *l.type, mem, stream)) {
    // done: the common strided case
  } else {
    if (put)
      core::copy_into(l, 0, op.bytes(), in, mem);
    else
      core::copy_out(l, 0, op.bytes(), mem, out);
  }
  if (d.unpack_to)
    core::unpack(d.unpack, d.packed_result.data(), static_cast<std::byte*>(d.unpack_to));
  count(c, put ? DirectOp::put : DirectOp::get);
  finish(op);
  return Status::ok();
}

Status direct_put(Call& c, RmaOp& op) {
  if (op.has_target_layout()) [[unlikely]]
    return direct_layout(c, op);
  RMA_TRY(core::await_access(c, op.target));
  const std::size_t bytes = op.bytes();
  if (core::has_padding(op.dtype)) [[unlikely]]
    core::copy_data(target_address(c, op), op.origin, bytes, op.dtype);
  else
    copy_bytes(target_address(c, op), op.origin,
               core::fault(core::Fault::put_short) && bytes ? bytes - 1 : bytes);
  count(c, DirectOp::put);
  finish(op);
  return Status::ok();
}

Status direct_get(Call& c, RmaOp& op) {
  if (op.has_target_layout() || op.unpacks()) [[unlikely]]
    return direct_layout(c, op);
  RMA_TRY(core::await_access(c, op.target));
  if (core::has_padding(op.dtype)) [[unlikely]]
    core::copy_data(op.result, target_address(c, op), op.bytes(), op.dtype);
  else
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
        case Op::sum:
          old = a.fetch_add(v, std::memory_order_seq_cst);
          break;
        case Op::band:
          old = a.fetch_and(v, std::memory_order_seq_cst);
          break;
        case Op::bor:
          old = a.fetch_or(v, std::memory_order_seq_cst);
          break;
        case Op::bxor:
          old = a.fetch_xor(v, std::memory_order_seq_cst);
          break;
        default:
          old = a.exchange(v, std::memory_order_seq_cst);
          break;
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
  StripeGuard guard(shm_win(c), op.target, op.disp, op.bytes());
  count(c, DirectOp::region_lock, guard.count());
  if (result) return core::fetch_reduce(op.op, op.dtype, mem, origin, result, op.count);
  return core::reduce(op.op, op.dtype, mem, origin, op.count);
}

Status direct_accumulate(Call& c, RmaOp& op) {
  RMA_TRY(core::await_access(c, op.target));
  if (op.op != Op::no_op) RMA_TRY(apply(c, op, op.origin, nullptr));
  count(c, DirectOp::accumulate);
  finish(op);
  return Status::ok();
}

Status direct_get_accumulate(Call& c, RmaOp& op) {
  RMA_TRY(core::await_access(c, op.target));
  RMA_TRY(apply(c, op, op.op == Op::no_op ? nullptr : op.origin, op.result));
  count(c, op.kind == PacketType::fetch_and_op ? DirectOp::fetch_and_op : DirectOp::get_accumulate);
  finish(op);
  return Status::ok();
}

Status direct_compare_and_swap(Call& c, RmaOp& op) {
  RMA_TRY(core::await_access(c, op.target));
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
    StripeGuard guard(shm_win(c), op.target, op.disp, es);
    count(c, DirectOp::region_lock, guard.count());
    RMA_TRY(core::compare_and_swap(op.dtype, mem, op.compare, op.origin, op.result));
  }
  count(c, DirectOp::compare_and_swap);
  finish(op);
  return Status::ok();
}

}  // namespace

const core::WindowOps& direct_ops() {
  static const core::WindowOps table = [] {
    core::WindowOps t = direct_sync_table(am::am_ops());
    t.name = "shm.direct";
    t.needs_engine_lock = false;
    t.direct_layouts = true;
    t.direct_unpacks = true;
    t.copies_mapped = true;
    t.put = direct_put;
    t.get = direct_get;
    t.accumulate = direct_accumulate;
    t.get_accumulate = direct_get_accumulate;
    t.fetch_and_op = direct_get_accumulate;
    t.compare_and_swap = direct_compare_and_swap;
    return t;
  }();
  return table;
}

}  // namespace rma::shm
