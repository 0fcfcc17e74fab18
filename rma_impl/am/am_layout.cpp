// The am path's derived datatypes: an op whose target layout is not contiguous travels as one
// packet (with its data packed at the origin), and its target type travels once per window
// and target as a compact description the target keeps; later ops name it by id. A derived
// op so costs the packets of the contiguous op of the same bytes. The target applies the data
// run by run, fragments of a rendezvous alike.
#include <cstring>

#include "am/am_win.hpp"
#include "core/fault.hpp"
#include "core/layout.hpp"
#include "core/reduce.hpp"
#include "core/runtime_impl.hpp"

namespace rma::am {

// A description travels in the packet that first needs it: it must leave room for data.
bool AmWin::carries(const Layout& target) const {
  return sizeof(LayoutPrefix) + target.type->description_bytes() <= e_.max_payload() / 2;
}

std::size_t AmWin::prefix_bound(const core::RmaOp& op) {
  if (!op.has_target_layout()) return 0;
  return sizeof(LayoutPrefix) + op.derived->target.type->description_bytes();
}

// The prefix of an op to target t: the type's id, and its description if t has not had it.
std::vector<std::byte> AmWin::layout_prefix(int t, const core::RmaOp& op) {
  if (shipped_.empty()) shipped_.resize(static_cast<std::size_t>(n_));
  auto& ids = shipped_[static_cast<std::size_t>(t)];
  const TypeRef& type = op.derived->target.type;
  LayoutPrefix p;
  p.count = op.derived->target.count;
  std::vector<std::byte> description;
  if (auto it = ids.find(type.get()); it != ids.end()) {
    p.id = it->second;
  } else {
    p.id = next_type_id_++;
    ids.emplace(type.get(), p.id);
    shipped_types_.push_back(type);
    description = type->encode();
  }
  p.description_bytes = static_cast<std::uint32_t>(description.size());
  e_.count_layout(description.size());
  std::vector<std::byte> out(sizeof p + description.size());
  std::memcpy(out.data(), &p, sizeof p);
  if (!description.empty())
    std::memcpy(out.data() + sizeof p, description.data(), description.size());
  return out;
}

// On arrival, before any packet can be held: a description becomes a type this window keeps.
void AmWin::learn_layout(int src, std::span<const std::byte> payload) {
  LayoutPrefix p;
  if (payload.size() < sizeof p) return;
  std::memcpy(&p, payload.data(), sizeof p);
  if (p.description_bytes == 0 || payload.size() - sizeof p < p.description_bytes) return;
  auto t = Datatype::decode(payload.subspan(sizeof p, p.description_bytes));
  if (!t) return;  // the op that needs it is rejected as TYPE
  if (received_types_.empty()) received_types_.resize(static_cast<std::size_t>(n_));
  received_types_[static_cast<std::size_t>(src)][p.id] = std::move(t.value());
}

// The target layout of an op from src, and its data after the prefix.
bool AmWin::take_layout(int src, std::span<const std::byte>& payload, Layout& out) const {
  LayoutPrefix p;
  if (payload.size() < sizeof p || received_types_.empty()) return false;
  std::memcpy(&p, payload.data(), sizeof p);
  if (payload.size() - sizeof p < p.description_bytes) return false;
  const auto& known = received_types_[static_cast<std::size_t>(src)];
  auto it = known.find(p.id);
  if (it == known.end()) return false;
  out = Layout{p.count, it->second};
  payload = payload.subspan(sizeof p + p.description_bytes);
  return true;
}

// Window memory at the op's displacement, when every byte the layout touches is there.
std::byte* AmWin::layout_memory(const progress::PacketHeader& h, const Layout& l) {
  const std::int64_t lo = l.data_lo(), hi = l.data_hi();
  if (w_.flavor == Flavor::dynamic) {
    progress::PacketHeader range = h;  // target_memory checks [disp, disp + count) attached
    range.disp = h.disp + static_cast<std::uint64_t>(lo);
    range.dtype = static_cast<std::uint8_t>(Dtype::u8);
    range.count = static_cast<std::uint64_t>(hi - lo);
    if (lo < 0 && h.disp < static_cast<std::uint64_t>(-lo)) return nullptr;
    return target_memory(range) ? reinterpret_cast<std::byte*>(h.disp) : nullptr;
  }
  const auto base = static_cast<std::int64_t>(h.disp);
  if (h.disp > w_.size || base + lo < 0 || base + hi > static_cast<std::int64_t>(w_.size))
    return nullptr;
  return w_.base + h.disp;
}

void AmWin::execute_layout_op(int src, const progress::PacketHeader& h, const Layout& l,
                              std::span<const std::byte> data) {
  const auto dtype = static_cast<Dtype>(h.dtype);
  const auto op = static_cast<Op>(h.op);
  const std::size_t bytes = h.count * size_of(dtype);
  const bool rndv = h.flags & progress::flag_rndv;
  const bool operands = h.type == PacketType::put || h.type == PacketType::accumulate ||
                        (h.type == PacketType::get_accumulate && op != Op::no_op);
  if (l.bytes() != bytes || (operands && !rndv && data.size() < bytes))
    return reject(src, h, ErrorClass::type);
  std::byte* mem = layout_memory(h, l);
  if (!mem) return reject(src, h, ErrorClass::rma_range);
  const std::size_t es = size_of(dtype);
  progress::PacketHeader reply = progress::make_header(
      h.type == PacketType::get ? PacketType::get_resp : PacketType::get_accumulate_resp);
  reply.win = w_.id;
  reply.cookie = h.cookie;
  reply.count = h.count;
  // Applies bytes [off, off + d.size()) of the op's data to window memory.
  auto apply = [mem, l, op, dtype, es, put = h.type == PacketType::put](
                   std::uint64_t off, std::span<const std::byte> d) {
    if (put) return core::copy_into(l, off, d.size(), d.data(), mem);
    core::for_each_run(l, off, d.size(), core::RunBytes::whole,
                       [&](std::int64_t at, std::uint64_t pos, std::uint64_t n) {
                         const std::byte* in = d.data() + (pos - off);
                         (void)core::reduce(core::faulty(op), dtype, mem + at, in, n / es);
                       });
  };
  auto old_values = [mem, l](std::uint64_t off, std::uint64_t n) {
    std::vector<std::byte> v(n);
    core::for_each_run(l, off, n, core::RunBytes::whole,
                       [&](std::int64_t at, std::uint64_t pos, std::uint64_t k) {
                         std::memcpy(v.data() + (pos - off), mem + at, k);
                       });
    return v;
  };
  switch (h.type) {
    case PacketType::put:
    case PacketType::accumulate:
      if (rndv) {
        const std::uint64_t id =
            w_.rt.bulk().expect(bytes, apply, [this, src, h] { complete_at_target(src, h); });
        send_cts(src, h, id);
        return;
      }
      apply(0, data.first(bytes));
      complete_at_target(src, h);
      return;
    case PacketType::get_accumulate:
      if (rndv) {
        // Each fragment's old values go back before it is applied, as for a contiguous op.
        reply.flags = progress::flag_rndv;
        e_.send(src, reply);
        const std::uint64_t back = h.aux;
        const std::uint64_t id = w_.rt.bulk().expect(
            bytes,
            [this, src, back, apply, old_values](std::uint64_t off, std::span<const std::byte> d) {
              progress::PacketHeader frag = progress::make_header(PacketType::data);
              frag.cookie = back;
              frag.aux = off;
              frag.count = d.size();
              e_.send(src, frag, old_values(off, d.size()));
              apply(off, d);
            },
            [this, src, h] { complete_at_target(src, h); });
        send_cts(src, h, id);
        return;
      }
      [[fallthrough]];
    case PacketType::get: {
      auto old = std::make_shared<std::vector<std::byte>>(old_values(0, bytes));
      if (operands) apply(0, data.first(bytes));
      if (h.aux) {  // a large reply streams from the gathered copy, kept until it has left
        stream_reply(src, h, reply, *old, old);
        return;
      }
      e_.send(src, reply, *old);
      complete_at_target(src, h);
      return;
    }
    default:
      reject(src, h, ErrorClass::type);  // atomics take no layout
  }
}

// An op to this rank's own window with a target layout.
Status AmWin::apply_local_layout(core::RmaOp& op, std::byte* mem) {
  const Layout& l = op.derived->target;
  const std::size_t es = size_of(op.dtype);
  auto* result = static_cast<std::byte*>(op.result);
  const auto* origin = static_cast<const std::byte*>(op.origin);
  if (op.kind == PacketType::put) {
    core::copy_into(l, 0, l.bytes(), origin, mem);
    return Status::ok();
  }
  if (op.kind == PacketType::get) {
    core::copy_out(l, 0, l.bytes(), mem, result);
    return Status::ok();
  }
  Status st;
  core::for_each_run(
      l, 0, l.bytes(), core::RunBytes::whole,
      [&](std::int64_t at, std::uint64_t pos, std::uint64_t n) {
        if (!st) return;
        if (op.kind == PacketType::accumulate)
          st = core::reduce(core::faulty(op.op), op.dtype, mem + at, origin + pos, n / es);
        else
          st =
              core::fetch_reduce(core::faulty(op.op), op.dtype, mem + at,
                                 op.op == Op::no_op ? nullptr : origin + pos, result + pos, n / es);
      });
  return st;
}

void AmWin::unpack_result(core::RmaOp& op) {
  core::DerivedParts& d = *op.derived;
  core::unpack(d.unpack, d.packed_result.data(), static_cast<std::byte*>(d.unpack_to));
  d.unpack_to = nullptr;
}

}  // namespace rma::am
