#include "core/fault.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace rma::core {
namespace {

constexpr std::string_view kNames[] = {
    "none",         "put_short", "accumulate_wrong_op", "grant_ignores_table", "no_singleton",
    "get_not_last", "drop_ack",  "held_op_early"};

}  // namespace

Fault read_fault() {
  const char* v = std::getenv("RMA_FAULT");
  if (!v || !*v) return Fault::none;
  for (int i = 0; i < static_cast<int>(std::size(kNames)); ++i)
    if (kNames[i] == v) return static_cast<Fault>(i);
  std::fprintf(stderr, "rma: RMA_FAULT=%s is not a fault this build knows; none injected\n", v);
  return Fault::none;
}

std::string_view to_string(Fault f) {
  return kNames[static_cast<int>(f)];
}

}  // namespace rma::core
