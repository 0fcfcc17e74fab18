// usage_error.hpp — what the user got wrong (a bad manifest, an undeclared option, a case
// table that breaks its contract): the command exits 2 with the message, which names the
// file and the field.
#pragma once

#include <stdexcept>

namespace harness::suite {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace harness::suite
