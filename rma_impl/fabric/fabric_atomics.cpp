#include "fabric/fabric_atomics.hpp"

#include <rdma/fi_domain.h>

namespace rma::fabric {
namespace {

constexpr AtomicKind kKinds[] = {AtomicKind::accumulate, AtomicKind::fetch, AtomicKind::compare};

bool mpi_allows(AtomicKind k, Op op, Dtype t) {
  if (is_pair(t)) return false;  // no fabric atomic for a pair: they go by packets
  if (k == AtomicKind::compare) return op == Op::replace && !is_float(t);  // one row: CAS
  if (k == AtomicKind::accumulate && op == Op::no_op) return false;        // nothing to do
  return op_valid_for(op, t);
}

}  // namespace

std::optional<fi_op> to_fi_op(Op op, AtomicKind kind) {
  if (kind == AtomicKind::compare) return FI_CSWAP;
  switch (op) {
    case Op::sum:
      return FI_SUM;
    case Op::prod:
      return FI_PROD;
    case Op::min:
      return FI_MIN;
    case Op::max:
      return FI_MAX;
    case Op::band:
      return FI_BAND;
    case Op::bor:
      return FI_BOR;
    case Op::bxor:
      return FI_BXOR;
    case Op::land:
      return FI_LAND;
    case Op::lor:
      return FI_LOR;
    case Op::lxor:
      return FI_LXOR;
    case Op::replace:
      return FI_ATOMIC_WRITE;
    case Op::no_op:
      if (kind == AtomicKind::fetch) return FI_ATOMIC_READ;
      return std::nullopt;
    case Op::maxloc:
    case Op::minloc:  // pairs have no fabric atomic
      return std::nullopt;
  }
  return std::nullopt;
}

fi_datatype to_fi_datatype(Dtype t) {
  switch (t) {
    case Dtype::i8:
      return FI_INT8;
    case Dtype::i16:
      return FI_INT16;
    case Dtype::i32:
      return FI_INT32;
    case Dtype::i64:
      return FI_INT64;
    case Dtype::u8:
      return FI_UINT8;
    case Dtype::u16:
      return FI_UINT16;
    case Dtype::u32:
      return FI_UINT32;
    case Dtype::u64:
      return FI_UINT64;
    case Dtype::f32:
      return FI_FLOAT;
    case Dtype::f64:
      return FI_DOUBLE;
    default:  // pairs: never asked (mpi_allows)
      break;
  }
  return FI_UINT8;
}

std::pair<int, int> AtomicTable::coverage(AtomicKind k) const {
  int native = 0, allowed = 0;
  for (int o = 0; o < op_count; ++o) {
    for (int d = 0; d < dtype_count; ++d) {
      const auto op = static_cast<Op>(o);
      const auto t = static_cast<Dtype>(d);
      if (!mpi_allows(k, op, t)) continue;
      ++allowed;
      if (max_count(k, op, t)) ++native;
    }
  }
  return {native, allowed};
}

std::string_view atomics_quirk(std::string_view provider) {
  // Seen with Debian 12's libfabric 1.17: fi_fetch_atomic and fi_compare_atomic through
  // ofi_rxd over udp crash the target process (SIGSEGV inside libfabric) as soon as a few
  // are in flight, though fi_query_atomic offers them. Accumulates and fi_read/fi_write
  // work. Those ops take the am slots instead, counted as am_fallback.
  if (provider.find("ofi_rxd") != std::string_view::npos)
    return "fetching and compare atomics go by packets: ofi_rxd (libfabric 1.17) crashes on them";
  return {};
}

AtomicTable query_atomics(fid_domain* domain, std::string_view provider) {
  AtomicTable table;
  const bool fetching_broken = !atomics_quirk(provider).empty();
  for (AtomicKind k : kKinds) {
    if (fetching_broken && k != AtomicKind::accumulate) continue;
    const std::uint64_t flags = k == AtomicKind::fetch     ? FI_FETCH_ATOMIC
                                : k == AtomicKind::compare ? FI_COMPARE_ATOMIC
                                                           : 0;
    for (int o = 0; o < op_count; ++o) {
      for (int d = 0; d < dtype_count; ++d) {
        const auto op = static_cast<Op>(o);
        const auto t = static_cast<Dtype>(d);
        if (!mpi_allows(k, op, t)) continue;
        const auto fop = to_fi_op(op, k);
        if (!fop) continue;
        fi_atomic_attr attr{};
        if (fi_query_atomic(domain, to_fi_datatype(t), *fop, &attr, flags) == 0 && attr.count > 0)
          table.set(k, op, t, attr.count);
      }
    }
  }
  return table;
}

}  // namespace rma::fabric
