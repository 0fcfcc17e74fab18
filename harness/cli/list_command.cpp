// `rmabench list`: the case ids a script or suite expands to, one per line (excluded cases
// follow with their reasons, marked so tools can tell them apart).
#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"

namespace harness::cli {

int list_command(const std::string& target, const suite::Overrides& o) {
  const suite::Expansion ex = suite::expand(target, o);
  for (const auto& c : ex.cases) std::cout << c.id << "\n";
  for (const auto& [c, reason] : ex.excluded)
    std::cerr << "excluded: " << c.id << "  # " << reason << "\n";
  return kExitOk;
}

}  // namespace harness::cli
