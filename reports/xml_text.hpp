// reports/xml_text.hpp — text made safe to put in an XML 1.0 document.
//
// Escapes the five markup characters, and keeps the document well-formed whatever bytes a
// rank sent (see printable() in text_format.hpp): control characters other than tab and
// line feed become a visible "\xNN", bytes that are not valid UTF-8 (and U+FFFE/U+FFFF)
// become U+FFFD. In attributes, tab and line feed are written as character references so a
// parser does not fold them into spaces.
//
//   out << "<failure message=\"" << xml_attribute(msg) << "\">" << xml_text(body);
#pragma once

#include <string>
#include <string_view>

namespace reports {

std::string xml_text(std::string_view s);       // element content
std::string xml_attribute(std::string_view s);  // attribute value inside double quotes

}  // namespace reports
