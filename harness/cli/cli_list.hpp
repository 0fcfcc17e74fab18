// cli_list.hpp — the one reading of a comma-separated option value (--sizes, --sync,
// --target-mode, --impl). Every entry is kept, so an empty one (a leading, doubled or
// trailing comma) reaches the caller and becomes an error instead of vanishing; and a name
// listed twice is refused, since it would give two figures of one name, which no gate can
// pair.
//
//   split_list("8,,64")  -> {"8", "", "64"}
//   choice_list("--sync", "lock,fence", {"lock", "fence"}, "lock or fence") -> {"lock", "fence"}
//   report_formats({"+html"}, {"json", "junit", "md"}) -> {"json", "junit", "md", "html"}
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

// --format: a plain list replaces `defaults`; a list whose every entry starts with '+' adds
// to them, in the defaults' order then its own (`+html` -> json, junit, md, html). Mixing
// the two is a suite::UsageError, as it reads both ways.
std::vector<std::string> report_formats(const std::vector<std::string>& given,
                                        const std::vector<std::string>& defaults);

}  // namespace harness::cli
