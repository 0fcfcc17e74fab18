// commands.hpp — the subcommands behind the command line; each returns the process's exit
// code and throws UsageError (exit 2) for what the user got wrong.
#pragma once

#include <string>
#include <vector>

#include "suite/manifest.hpp"

namespace harness::cli {

struct RunArgs {
  std::string target;
  suite::Overrides overrides;
  std::vector<std::string> options;  // -o name=value, as given
  std::string report_dir;
  std::vector<std::string> formats;
  bool verbose = false;
  std::string command_line;
};

int run_command(RunArgs& args);
int list_command(const std::string& target, const suite::Overrides& o);
int describe_command(const std::string& script);
int info_command();

}  // namespace harness::cli
