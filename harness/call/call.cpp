// call.cpp — names, families and completion of the calls, all read from the one list in
// call.hpp.
#include "call/call.hpp"

#include "rma/trace.hpp"

namespace harness::call {

std::string_view to_string(Kind k) {
  return describe(k).name;
}

std::optional<Kind> parse_kind(std::string_view name) {
  for (int i = 0; i < kind_count; ++i)
    if (detail::descriptions[i].name == name) return static_cast<Kind>(i);
  return std::nullopt;
}

Family family_of(Kind k) {
  return describe(k).family;
}

Completes completes_of(Kind k) {
  return describe(k).completes;
}

void trace(const Call& c, int rank, std::int64_t t0, std::int64_t t1) {
  const Args& a = describe(c.kind).args;
  const bool has_target = a.has(Arg::target);
  std::uint64_t bytes = c.bytes;
  if (family_of(c.kind) == Family::communication || family_of(c.kind) == Family::request)
    bytes = c.count * rma::size_of(c.dtype);
  rma::trace::call(to_string(c.kind), rank, has_target ? c.target : -1, bytes, t0, t1);
}

}  // namespace harness::call
