// sizes.cpp — reads --sizes (cli/sizes.hpp) strictly: a value that does not fit, a sign, an
// empty entry, a size listed twice or a range that would not be powers of two is an error
// naming it, never a wrapped number (1:2^63 doubled to 0 and looped forever; -1 became 2^64-1).
#include "cli/sizes.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <stdexcept>

#include "cli/cli_list.hpp"

namespace harness::cli {
namespace {

// A size reaches the script as its `size` option, a Lua integer: the largest one that fits.
constexpr std::uint64_t kMaxSize = std::numeric_limits<std::int64_t>::max();

// The bytes `s` says (digits, then K, M or G), or nullopt with `why` set.
std::optional<std::uint64_t> parse_size(const std::string& s, std::string& why) {
  if (s.empty()) {
    why = "an empty entry (a leading, doubled or trailing comma?)";
    return std::nullopt;
  }
  // std::stoull would take a sign (-1 is 2^64-1) and leading blanks: digits only.
  if (!std::isdigit(static_cast<unsigned char>(s[0]))) {
    why = "'" + s + "' is not a number of bytes (digits, with K, M or G)";
    return std::nullopt;
  }
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(s, &used, 10);
  } catch (const std::out_of_range&) {
    why = "'" + s + "' is larger than " + std::to_string(kMaxSize) + " bytes";
    return std::nullopt;
  }
  const std::string suffix = s.substr(used);
  std::uint64_t mult = 1;
  if (suffix == "K" || suffix == "k")
    mult = 1ull << 10;
  else if (suffix == "M" || suffix == "m")
    mult = 1ull << 20;
  else if (suffix == "G" || suffix == "g")
    mult = 1ull << 30;
  else if (!suffix.empty()) {
    why = "'" + s + "' is not a number of bytes (digits, with K, M or G)";
    return std::nullopt;
  }
  if (v > kMaxSize / mult) {
    why = "'" + s + "' is larger than " + std::to_string(kMaxSize) + " bytes";
    return std::nullopt;
  }
  return v * mult;
}

bool power_of_two(std::uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

}  // namespace

std::optional<std::vector<std::uint64_t>> parse_sizes(const std::string& text, std::string& error) {
  std::vector<std::uint64_t> out;
  std::string why;
  if (text.empty()) {
    error = "--sizes: no size given (MIN:MAX, e.g. 1:4M, or a list, e.g. 8,64,1K)";
    return std::nullopt;
  }
  const auto colon = text.find(':');
  if (colon != std::string::npos) {
    const std::string min = text.substr(0, colon), max = text.substr(colon + 1);
    if (min.empty() || max.empty()) {
      error = "--sizes " + text + ": " + (min.empty() ? "MIN" : "MAX") +
              " is missing (MIN:MAX, e.g. 1:4M)";
      return std::nullopt;
    }
    auto lo = parse_size(min, why);
    auto hi = lo ? parse_size(max, why) : std::nullopt;
    if (!lo || !hi) {
      error = "--sizes " + text + ": " + why;
      return std::nullopt;
    }
    if (*lo == 0 || *lo > *hi) {
      error = "--sizes " + text + ": expected MIN:MAX with 0 < MIN <= MAX (e.g. 1:4M)";
      return std::nullopt;
    }
    // 3:100 could mean 3, 6, 12... or the powers of two between: say which.
    if (!power_of_two(*lo)) {
      error = "--sizes " + text + ": MIN " + std::to_string(*lo) +
              " is not a power of two (MIN:MAX sweeps powers of two; list other sizes)";
      return std::nullopt;
    }
    // hi <= kMaxSize < 2^63, so s * 2 cannot wrap before the loop ends.
    for (std::uint64_t s = *lo; s <= *hi; s *= 2) out.push_back(s);
    return out;
  }
  for (const std::string& part : split_list(text)) {
    auto v = parse_size(part, why);
    if (!v) {
      error = "--sizes " + text + ": " + why;
      return std::nullopt;
    }
    // A size twice would give two figures of one name, which no gate can pair.
    if (std::find(out.begin(), out.end(), *v) != out.end()) {
      error = "--sizes " + text + ": " + std::to_string(*v) + " bytes is listed twice";
      return std::nullopt;
    }
    out.push_back(*v);
    if (out.size() > kMaxSizes) {
      error = "--sizes " + text + ": more than " + std::to_string(kMaxSizes) + " sizes";
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace harness::cli
