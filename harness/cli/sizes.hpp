// sizes.hpp — the byte sizes a benchmark sweeps, from the command line: "1:4M" is every power
// of two from 1 B to 4 MiB; "8,64,1K" is a list. Suffixes K, M, G are binary (1K = 1024).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace harness::cli {

// The sizes, or nullopt with `error` set (naming the part that could not be read).
std::optional<std::vector<std::uint64_t>> parse_sizes(const std::string& text, std::string& error);

}  // namespace harness::cli
