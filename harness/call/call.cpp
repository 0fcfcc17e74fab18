// call.cpp — names, families and completion of the calls, all read from the one list in
// call.hpp.
#include "call/call.hpp"

namespace harness::call {

std::string_view to_string(Kind k) { return describe(k).name; }

std::optional<Kind> parse_kind(std::string_view name) {
  for (int i = 0; i < kind_count; ++i)
    if (detail::descriptions[i].name == name) return static_cast<Kind>(i);
  return std::nullopt;
}

Family family_of(Kind k) { return describe(k).family; }

Completes completes_of(Kind k) { return describe(k).completes; }

}  // namespace harness::call
