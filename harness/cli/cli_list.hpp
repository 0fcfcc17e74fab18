// cli_list.hpp — the one reading of a comma-separated option value (--sizes, --sync,
// --target-mode, --impl). Every entry is kept, so an empty one (a leading, doubled or
// trailing comma) reaches the caller and becomes an error instead of vanishing; and a name
// listed twice is refused, since it would give two figures of one name, which no gate can
// pair.
//
//   split_list("8,,64")  -> {"8", "", "64"}
//   choice_list("--sync", "lock,fence", {"lock", "fence"}, "lock or fence") -> {"lock", "fence"}
#pragma once

#include <string>
#include <vector>

namespace harness::cli {

// The entries between commas, in order, empty ones included ("" gives one empty entry).
std::vector<std::string> split_list(const std::string& text);

// The entries of `text`, each one of `allowed` and given once; suite::UsageError naming
// `flag` and the entry otherwise (`expected` ends the message for an unknown entry).
std::vector<std::string> choice_list(const std::string& flag, const std::string& text,
                                     const std::vector<std::string>& allowed,
                                     const std::string& expected);

}  // namespace harness::cli
