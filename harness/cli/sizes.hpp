// sizes.hpp — the byte sizes a benchmark sweeps, from the command line: "1:4M" is every power
// of two from 1 B up to 4 MiB (MIN must be a power of two; MAX bounds the sweep); "8,64,1K" is
// a list. Suffixes K, M, G are binary (1K = 1024). A size is at most 2^63-1 bytes (the script's
// `size` is a Lua integer), a list at most kMaxSizes long.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace harness::cli {

// More than a range can give (63 powers of two); a longer list is a mistake, not a sweep.
inline constexpr std::size_t kMaxSizes = 64;

// The sizes, or nullopt with `error` set (naming the part that could not be read).
std::optional<std::vector<std::uint64_t>> parse_sizes(const std::string& text, std::string& error);

}  // namespace harness::cli
