#include "reports/markdown_text.hpp"

#include <algorithm>

#include "reports/text_format.hpp"

namespace reports {

std::string md_inline(std::string_view s) {
  static constexpr std::string_view special = "\\`*_[]<>|&~$";
  std::string out;
  for (char c : printable(s)) {
    if (c == '\n') {
      out += "<br>";
    } else {
      if (special.find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
  }
  return out;
}

std::string md_code(std::string_view s) {
  std::string body;
  std::size_t run = 0, longest = 0;
  for (char c : printable(s)) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '\n' || c == '\t') {
      body += ' ';
    } else if (c == '|') {
      body += "\\|";
    } else {
      body += c;
    }
  }
  if (body.empty()) return "";
  const std::string fence(longest + 1, '`');
  const bool pad = body.front() == '`' || body.back() == '`';
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

}  // namespace reports
