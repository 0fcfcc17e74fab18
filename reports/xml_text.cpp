#include "reports/xml_text.hpp"

#include "reports/text_format.hpp"

namespace reports {

namespace {

// printable() has already removed everything XML 1.0 forbids; what is left is markup.
std::string escape(std::string_view s, bool attribute) {
  std::string out;
  for (char c : printable(s)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

std::string xml_text(std::string_view s) {
  return escape(s, false);
}
std::string xml_attribute(std::string_view s) {
  return escape(s, true);
}

}  // namespace reports
