// Comma-separated option values (cli_list.hpp).
#include "cli/cli_list.hpp"

#include <algorithm>

#include "suite/manifest.hpp"

namespace harness::cli {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::vector<std::string> choice_list(const std::string& flag, const std::string& text,
                                     const std::vector<std::string>& allowed,
                                     const std::string& expected) {
  std::vector<std::string> out;
  for (const std::string& entry : split_list(text)) {
    if (entry.empty())
      throw suite::UsageError(flag + " '" + text +
                              "': an empty entry (a leading, doubled or trailing comma?)");
    if (std::find(allowed.begin(), allowed.end(), entry) == allowed.end())
      throw suite::UsageError(flag + " " + entry + ": expected " + expected);
    if (std::find(out.begin(), out.end(), entry) != out.end())
      throw suite::UsageError(flag + " '" + text + "': " + entry + " is listed twice");
    out.push_back(entry);
  }
  return out;
}

std::vector<std::string> report_formats(const std::vector<std::string>& given,
                                        const std::vector<std::string>& defaults) {
  const auto added = [](const std::string& f) { return !f.empty() && f[0] == '+'; };
  const auto n = std::count_if(given.begin(), given.end(), added);
  if (n == 0) return given;
  if (static_cast<std::size_t>(n) != given.size())
    throw suite::UsageError(
        "--format: give either a list that replaces the default (json,junit,md) or one of "
        "+NAME entries that add to it, not both");
  std::vector<std::string> out = defaults;
  for (const auto& f : given)
    if (std::find(out.begin(), out.end(), f.substr(1)) == out.end()) out.push_back(f.substr(1));
  return out;
}

}  // namespace harness::cli
