#include "cli/sizes.hpp"

#include <cctype>
#include <sstream>

namespace harness::cli {
namespace {

std::optional<std::uint64_t> parse_size(const std::string& s) {
  if (s.empty()) return std::nullopt;
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(s, &used, 10);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::string suffix = s.substr(used);
  std::uint64_t mult = 1;
  if (suffix == "K" || suffix == "k") mult = 1ull << 10;
  else if (suffix == "M" || suffix == "m") mult = 1ull << 20;
  else if (suffix == "G" || suffix == "g") mult = 1ull << 30;
  else if (!suffix.empty()) return std::nullopt;
  return v * mult;
}

}  // namespace

std::optional<std::vector<std::uint64_t>> parse_sizes(const std::string& text, std::string& error) {
  std::vector<std::uint64_t> out;
  const auto colon = text.find(':');
  if (colon != std::string::npos) {
    auto lo = parse_size(text.substr(0, colon));
    auto hi = parse_size(text.substr(colon + 1));
    if (!lo || !hi || *lo == 0 || *lo > *hi) {
      error = "--sizes " + text + ": expected MIN:MAX with 0 < MIN <= MAX (e.g. 1:4M)";
      return std::nullopt;
    }
    for (std::uint64_t s = *lo; s <= *hi; s *= 2) out.push_back(s);
    return out;
  }
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    auto v = parse_size(part);
    if (!v) {
      error = "--sizes: cannot read '" + part + "' (a number of bytes, with K, M or G)";
      return std::nullopt;
    }
    out.push_back(*v);
  }
  if (out.empty()) {
    error = "--sizes: no size given";
    return std::nullopt;
  }
  return out;
}

}  // namespace harness::cli
