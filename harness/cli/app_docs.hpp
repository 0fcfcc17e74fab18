// app_docs.hpp — the man page and the bash completion script, both written from the CLI11
// definitions of cli/app.cpp, so neither can drift from `--help`. The build runs the hidden
// `rmabench __man` and `rmabench __completion` to make the installed files (docs/install.md).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace harness::cli {

// The values an option takes when its checks name a set (CLI::IsMember: "{am,direct,auto}").
std::vector<std::string> enumerated_values(const CLI::Option& opt);

// rmabench.1 in roff (man(7)): every visible subcommand with its options and their values.
void write_man_page(const CLI::App& app, std::ostream& out);

// A bash completion script: subcommands, each one's flags, and the values of enumerated flags.
void write_bash_completion(const CLI::App& app, std::ostream& out);

}  // namespace harness::cli
