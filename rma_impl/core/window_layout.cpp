// The generic layer's communication calls with derived datatypes: MPI's type rules (one
// signature on both sides, one basic type for accumulates, no overlapping entries where data
// lands, the target layout inside the window) are checked here once for every path, then
// the call goes to the window's table as one op per contiguous piece (core/layout.hpp). A
// layout that is one contiguous run goes as today's op.
#include <array>
#include <memory>
#include <span>
#include <string>

#include "core/layout.hpp"
#include "core/window_entry.hpp"
#include "rma/window.hpp"

namespace rma {
namespace {

using core::Entry;
using core::RmaOp;
using core::where;
using core::Win;
using Slot = Status (*)(core::Call&, RmaOp&);

// One call as the caller gave it: the kind, its op, and each side's memory and layout.
struct Sides {
  PacketType kind = PacketType::put;
  Op op = Op::replace;
  const void* origin = nullptr;  // the data that goes out; get: where it arrives
  const Layout* o = nullptr;
  void* result = nullptr;  // get_accumulate
  const Layout* r = nullptr;
  const Layout* t = nullptr;
  int target = 0;
  std::uint64_t disp = 0;
};

bool accumulate_like(PacketType k) {
  return k == PacketType::accumulate || k == PacketType::get_accumulate;
}

Status type_error(const Win& w, const char* call, int target, const std::string& what) {
  return {ErrorClass::type, where(w, call, target) + ": " + what};
}

// Before anything reads a layout: a type on every side.
Status check_present(const Win& w, const char* call, const Sides& s) {
  for (const Layout* l : {s.o, s.r, s.t})
    if (l && !l->type) return type_error(w, call, s.target, "a layout without a type");
  return Status::ok();
}

// Whether the layout carries data, without the product that may wrap before check_limits.
bool carries(const Layout* l) {
  return l && l->count != 0 && l->type->elements() != 0;
}

// Before anything reads a layout's size: counts that cannot wrap it.
Status check_limits(const Win& w, const char* call, const Sides& s) {
  const Layout* sides[] = {s.o, s.r, s.t};
  const char* names[] = {"origin", "result", "target"};
  for (int k = 0; k < 3; ++k) {
    if (!sides[k]) continue;
    if (!sides[k]->in_limits())
      return {ErrorClass::count, where(w, call, s.target) + ": the " + names[k] + " layout " +
                                     sides[k]->describe() +
                                     " reaches 2^48 bytes or more of data or span"};
  }
  return Status::ok();
}

// An accumulate's rules on each side's type, which a call without layouts checks first too
// (core/window.cpp), whatever the count: one basic type, and the op defined for it.
Status check_op_types(const Win& w, const char* call, const Sides& s) {
  if (!accumulate_like(s.kind)) return Status::ok();
  const Layout* sides[] = {s.o, s.r, s.t};
  const char* names[] = {"origin", "result", "target"};
  for (int k = 0; k < 3; ++k) {
    const Layout* l = sides[k];
    if (!l || l->type->elements() == 0) continue;
    if (!l->type->basic_type())
      return type_error(w, call, s.target,
                        std::string(names[k]) + " type " + l->type->describe() +
                            " mixes basic types (" + l->type->signature() +
                            "); an accumulate's types are built from one");
    if (!op_valid_for(s.op, *l->type->basic_type()))
      return {ErrorClass::op, where(w, call, s.target) + ": " + std::string(to_string(s.op)) +
                                  " is not defined for " +
                                  std::string(to_string(*l->type->basic_type()))};
  }
  return Status::ok();
}

// The rules that read the layouts' runs: matching signatures, no byte written twice.
Status check_types(const Win& w, const char* call, const Sides& s) {
  auto match = [&](const Layout* a, const char* an) -> Status {
    if (!a || same_signature(*a, *s.t)) return Status::ok();
    return type_error(w, call, s.target,
                      std::string(an) + " signature " + a->signature() +
                          " does not match target signature " + s.t->signature());
  };
  RMA_TRY(match(s.o, "origin"));  // null for a no_op get_accumulate (make_get_accumulate)
  RMA_TRY(match(s.r, "result"));
  // Where data lands, no byte may be written twice.
  const Layout* lands[] = {s.kind == PacketType::get ? s.o : s.t, s.r};
  const char* land_names[] = {s.kind == PacketType::get ? "origin" : "target", "result"};
  for (int k = 0; k < 2; ++k) {
    const Overlap o = lands[k] ? overlaps(*lands[k]) : Overlap::none;
    if (o == Overlap::some)
      return type_error(w, call, s.target,
                        std::string(land_names[k]) + " layout " + lands[k]->describe() +
                            " has overlapping entries, where MPI forbids them");
    if (o == Overlap::unknown)
      return {ErrorClass::unsupported,
              where(w, call, s.target) + ": " + land_names[k] + " layout " + lands[k]->describe() +
                  ": its instances interleave too far for this implementation to check that "
                  "no byte is written twice"};
  }
  return Status::ok();
}

// The target layout inside the target's window; the byte offset of its origin.
Result<std::int64_t> check_range(const Win& w, const char* call, const Sides& s) {
  if (w.flavor == Flavor::dynamic) return static_cast<std::int64_t>(s.disp);  // checked there
  const core::PeerWin& p = w.peers[static_cast<std::size_t>(s.target)];
  const auto unit = static_cast<std::uint64_t>(p.disp_unit);
  std::uint64_t base = 0;
  if (s.t->elements() == 0) return std::int64_t{0};
  const std::int64_t lo = s.t->data_lo(), hi = s.t->data_hi();
  if (__builtin_mul_overflow(s.disp, unit, &base) || base > (std::uint64_t{1} << 62) ||
      static_cast<std::int64_t>(base) + lo < 0 ||
      static_cast<std::int64_t>(base) + hi > static_cast<std::int64_t>(p.size))
    return Status{ErrorClass::rma_range,
                  where(w, call, s.target) + ": the target layout " + s.t->describe() +
                      " at displacement " + std::to_string(s.disp) + " (x" + std::to_string(unit) +
                      " bytes) touches bytes " +
                      std::to_string(static_cast<std::int64_t>(base) + lo) + ".." +
                      std::to_string(static_cast<std::int64_t>(base) + hi) +
                      ", outside the target's " + std::to_string(p.size) + "-byte window"};
  return static_cast<std::int64_t>(base);
}

bool dense(const Layout* l) {
  return !l || l->type->dense();
}

// Whether the slot takes the op whole: the packet protocol's slot when it can carry the
// layout, or a direct table's put or get slot that says it copies run by run.
bool takes_whole(const Win& w, Slot core::WindowOps::*slot, const Sides& s) {
  if (w.ops->*slot == w.rt.protocol().ops->*slot) return w.am->carries(*s.t);
  if (!w.ops->direct_layouts) return false;
  if (s.kind == PacketType::put) return true;
  return s.kind == PacketType::get && (w.ops->direct_unpacks || dense(s.o));
}

// The am path carries a derived-type op whole (one packet, as a contiguous op of the same
// bytes): the sides that are not contiguous are packed here, the target layout travels.
Status issue_whole(Win& w, core::Call& call, Slot core::WindowOps::*slot, const Sides& s,
                   std::int64_t base, const std::shared_ptr<core::RequestState>& request) {
  RmaOp op;
  op.kind = s.kind;
  op.target = s.target;
  op.op = s.op;
  op.request = request;
  const std::uint64_t bytes = s.t->bytes();
  const auto basic = s.t->type->basic_type();
  op.dtype = basic ? *basic : Dtype::u8;  // an accumulate's types have one basic type
  op.count = basic ? s.t->elements() : bytes;
  op.derived = std::make_shared<core::DerivedParts>();
  core::DerivedParts& d = *op.derived;
  const bool get = s.kind == PacketType::get;
  if (!get && s.origin && s.o) {
    if (s.o->type->dense()) {
      op.origin = s.origin;
    } else {
      d.packed_origin.resize(bytes);
      core::pack(*s.o, static_cast<const std::byte*>(s.origin), d.packed_origin.data());
      op.origin = d.packed_origin.data();
    }
  }
  const Layout* land = get ? s.o : s.r;
  void* land_at = get ? const_cast<void*>(s.origin) : s.result;
  if (land && land->type->dense()) {
    op.result = land_at;
  } else if (land) {
    d.packed_result.resize(bytes);
    op.result = d.packed_result.data();
    d.unpack_to = land_at;
    d.unpack = *land;
  }
  op.disp = static_cast<std::uint64_t>(base);
  if (!s.t->type->dense()) d.target = *s.t;
  return (w.ops->*slot)(call, op);
}

// Validates, then issues one op per piece through `slot`; a request gets a part per piece.
Status communicate(Win& w, const char* name, Slot core::WindowOps::*slot, const Sides& s,
                   const std::shared_ptr<core::RequestState>& request) {
  Entry e(w, name, s.target, false);
  RMA_TRY(e.usable());
  RMA_TRY(w.rt.check_peer(name, s.target, true));
  RMA_TRY(check_present(w, name, s));
  // In the order a call without layouts checks (core/window.cpp): the op, the buffers, the
  // count, the epoch, the range; then the rules that read the layouts' runs, whose work the
  // range bounds. (A no_op get_accumulate has no origin here: make_get_accumulate.)
  RMA_TRY(check_op_types(w, name, s));
  if (carries(s.o) && !s.origin)
    return {ErrorClass::buffer, where(w, name, s.target) + ": null origin buffer"};
  if (carries(s.r) && !s.result)
    return {ErrorClass::buffer, where(w, name, s.target) + ": null result buffer"};
  RMA_TRY(check_limits(w, name, s));
  RMA_TRY(w.epochs.can_access(name, s.target, request != nullptr));
  Result<std::int64_t> base = std::int64_t{0};
  const bool moves = s.target != proc_null && s.t->elements() != 0;
  if (moves && !(base = check_range(w, name, s))) return base.status();
  RMA_TRY(check_types(w, name, s));
  w.epochs.did_access();
  if (!moves) {
    if (request) request->done = true;
    return Status::ok();
  }
  if (!(dense(s.o) && dense(s.r) && dense(s.t)) && takes_whole(w, slot, s))
    return issue_whole(w, e.call, slot, s, *base, request);
  const bool has_origin = s.origin && s.o;
  std::array<const Layout*, 3> sides{};
  std::size_t n = 0;
  const int oi = has_origin ? static_cast<int>(n) : -1;
  if (has_origin) sides[n++] = s.o;
  const int ri = s.r ? static_cast<int>(n) : -1;
  if (s.r) sides[n++] = s.r;
  const auto ti = n;
  sides[n++] = s.t;
  return core::for_each_piece(std::span(sides.data(), n), [&](const core::Piece& p) -> Status {
    RmaOp op;
    op.kind = s.kind;
    op.target = s.target;
    op.count = p.count;
    op.dtype = p.dtype;
    op.op = s.op;
    const auto* o = static_cast<const std::byte*>(s.origin);
    if (s.kind == PacketType::get)
      op.result = const_cast<std::byte*>(o) + p.at[oi];
    else if (oi >= 0)
      op.origin = o + p.at[oi];
    if (ri >= 0) op.result = static_cast<std::byte*>(s.result) + p.at[ri];
    op.disp = static_cast<std::uint64_t>(*base + p.at[ti]);
    if (request) {
      op.request = std::make_shared<core::RequestState>();
      op.request->win = &w;
      op.request->target = s.target;
      request->parts.push_back(op.request);
    }
    return (w.ops->*slot)(e.call, op);
  });
}

Result<Request> request_op(Win& w, const char* name, Slot core::WindowOps::*slot, const Sides& s) {
  auto state = std::make_shared<core::RequestState>();
  state->win = &w;
  state->target = s.target;
  RMA_TRY(communicate(w, name, slot, s, state));
  return core::Win::make_request(std::move(state));
}

Sides make(PacketType kind, const void* origin, const Layout& o, int target, std::uint64_t disp,
           const Layout& t, Op op = Op::replace) {
  Sides s;
  s.kind = kind;
  s.origin = origin;
  s.o = &o;
  s.target = target;
  s.disp = disp;
  s.t = &t;
  s.op = op;
  return s;
}

Sides make_get_accumulate(const void* origin, const Layout& o, void* result, const Layout& r,
                          int target, std::uint64_t disp, const Layout& t, Op op) {
  Sides s = make(PacketType::get_accumulate, origin, o, target, disp, t, op);
  if (op == Op::no_op) s.origin = nullptr, s.o = nullptr;  // MPI ignores both
  s.result = result;
  s.r = &r;
  return s;
}

}  // namespace

Status Window::put(const void* origin, const Layout& o, int target, std::uint64_t disp,
                   const Layout& t) {
  return communicate(*w_, "put", &core::WindowOps::put,
                     make(PacketType::put, origin, o, target, disp, t), nullptr);
}

Status Window::get(void* origin, const Layout& o, int target, std::uint64_t disp, const Layout& t) {
  return communicate(*w_, "get", &core::WindowOps::get,
                     make(PacketType::get, origin, o, target, disp, t), nullptr);
}

Status Window::accumulate(const void* origin, const Layout& o, int target, std::uint64_t disp,
                          const Layout& t, Op op) {
  return communicate(*w_, "accumulate", &core::WindowOps::accumulate,
                     make(PacketType::accumulate, origin, o, target, disp, t, op), nullptr);
}

Status Window::get_accumulate(const void* origin, const Layout& o, void* result, const Layout& r,
                              int target, std::uint64_t disp, const Layout& t, Op op) {
  return communicate(*w_, "get_accumulate", &core::WindowOps::get_accumulate,
                     make_get_accumulate(origin, o, result, r, target, disp, t, op), nullptr);
}

Result<Request> Window::rput(const void* origin, const Layout& o, int target, std::uint64_t disp,
                             const Layout& t) {
  return request_op(*w_, "rput", &core::WindowOps::put,
                    make(PacketType::put, origin, o, target, disp, t));
}

Result<Request> Window::rget(void* origin, const Layout& o, int target, std::uint64_t disp,
                             const Layout& t) {
  return request_op(*w_, "rget", &core::WindowOps::get,
                    make(PacketType::get, origin, o, target, disp, t));
}

Result<Request> Window::raccumulate(const void* origin, const Layout& o, int target,
                                    std::uint64_t disp, const Layout& t, Op op) {
  return request_op(*w_, "raccumulate", &core::WindowOps::accumulate,
                    make(PacketType::accumulate, origin, o, target, disp, t, op));
}

Result<Request> Window::rget_accumulate(const void* origin, const Layout& o, void* result,
                                        const Layout& r, int target, std::uint64_t disp,
                                        const Layout& t, Op op) {
  return request_op(*w_, "rget_accumulate", &core::WindowOps::get_accumulate,
                    make_get_accumulate(origin, o, result, r, target, disp, t, op));
}

}  // namespace rma
