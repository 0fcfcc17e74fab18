// `rmabench list`: the case ids a script or suite expands to, one per line (excluded cases
// follow with their reasons, marked so tools can tell them apart). Nothing to list is the same
// usage error as for `run` and `bench` (a --filter that matches nothing is a typo, not an
// empty suite).
#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/pipeline.hpp"

namespace harness::cli {

int list_command(RunArgs& args) {
  const suite::Expansion ex = expand_input(args);
  for (const auto& c : ex.cases) std::cout << c.id << "\n";
  for (const auto& [c, reason] : ex.excluded)
    std::cerr << "excluded: " << c.id << "  # " << reason << "\n";
  return kExitOk;
}

}  // namespace harness::cli
