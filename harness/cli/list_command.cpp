// `rmabench list`: the case ids a script or suite expands to, one per line (excluded cases
// follow with their reasons, marked so tools can tell them apart).
#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "cli/pipeline.hpp"

namespace harness::cli {

int list_command(RunArgs& args) {
  parse_script_options(args);
  const suite::Expansion ex = suite::expand(args.input, args.overrides);
  for (const auto& c : ex.cases) std::cout << c.id << "\n";
  for (const auto& [c, reason] : ex.excluded)
    std::cerr << "excluded: " << c.id << "  # " << reason << "\n";
  return kExitOk;
}

}  // namespace harness::cli
