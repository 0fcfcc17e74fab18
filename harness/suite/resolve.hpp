// resolve.hpp — suites and patterns by name, from any directory: `rmabench run quick`,
// `rmabench run passive/lock_put_unlock`. A NAME is looked up in each directory D of
// RMABENCH_PATH (colon-separated), in order, then in this rmabench's share/rmabench
// (install_layout.hpp), as D/NAME.lua, D/suites/NAME.lua, D/lua_scripts/NAME.lua; the first
// file found wins. An argument that is an existing file is taken as the path it is.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace harness::suite {

// The directories searched, in order: RMABENCH_PATH's, then share/rmabench (when found).
std::vector<std::filesystem::path> search_dirs();

// The file `arg` names: itself when it is a file, else the first match of the name (".lua"
// optional) in search_dirs(). Throws UsageError naming the nearest known names otherwise.
std::string resolve_input(const std::string& arg);

// `rmabench list` without an argument: per searched directory, its suites and pattern folders.
void print_catalog(std::ostream& out);

}  // namespace harness::suite
