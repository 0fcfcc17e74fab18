#include "reports/text_format.hpp"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace reports {

namespace {

constexpr std::string_view replacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence starting at s[i] and its code point, or 0 when the
// bytes there are not one (bad lead byte, truncated, overlong, surrogate, > U+10FFFF).
std::size_t utf8_sequence(std::string_view s, std::size_t i, char32_t& cp) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[i + k]); };
  const std::uint8_t lead = byte(0);
  std::size_t len = 0;
  char32_t min = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    len = 2;
    cp = lead & 0x1F;
    min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    len = 3;
    cp = lead & 0x0F;
    min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    len = 4;
    cp = lead & 0x07;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::string verdict_word(const CaseResult& c) {
  if (c.passed()) return "PASS";
  if (c.status == Verdict::pass) return "FAIL";  // a must-deadlock case that completed
  std::string word(to_string(c.status));
  for (auto& ch : word) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return word;
}

std::string summary_line(const Summary& s) {
  std::string line = std::to_string(s.passed) + " passed, " + std::to_string(s.failed) + " failed";
  if (s.interrupted > 0) line += ", " + std::to_string(s.interrupted) + " interrupted";
  if (s.impl_defined > 0) line += ", " + std::to_string(s.impl_defined) + " impl_defined";
  if (s.skipped > 0) line += ", " + std::to_string(s.skipped) + " skipped";
  return line;
}

std::string format_seconds(double seconds) {
  if (!std::isfinite(seconds)) return "?s";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3fs", seconds);
  return buf;
}

std::string json_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    bool scalars = true;
    for (const auto& v : value) scalars = scalars && !v.is_structured();
    if (scalars) {
      std::string out;
      for (const auto& v : value) out += (out.empty() ? "" : ", ") + json_text(v);
      return out;
    }
  }
  // Replace, not throw, on invalid UTF-8: a crashing rank may have sent any bytes.
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02X", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    char32_t cp = 0;
    const std::size_t len = utf8_sequence(s, i, cp);
    if (len == 0) {
      out += replacement;
      ++i;
      continue;
    }
    out += (cp == 0xFFFE || cp == 0xFFFF) ? replacement : s.substr(i, len);
    i += len;
  }
  return out;
}

std::string race_access_text(const RaceAccess& a) {
  std::string s = "rank " + std::to_string(a.rank) + " " + a.op + " at " + a.where;
  if (a.window >= 0) {
    s += ", rank " + std::to_string(a.target) + "'s window " + std::to_string(a.window);
    if (a.hi > a.lo) s += " bytes [" + std::to_string(a.lo) + ", " + std::to_string(a.hi) + ")";
  }
  if (!a.epoch.empty()) s += ", " + a.epoch;
  return s;
}

std::string race_headline(const Race& r) {
  return r.rule + ": " + r.first.where + " and " + r.second.where;
}

}  // namespace reports
