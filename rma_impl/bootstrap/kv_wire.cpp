#include "bootstrap/kv_wire.hpp"

#include <cstring>

namespace rma::bootstrap::wire {
namespace {

void put_u32(std::string& s, std::uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  s.append(b, 4);
}

bool get_u32(const std::string& s, std::size_t& at, std::uint32_t& v) {
  if (at + 4 > s.size()) return false;
  std::memcpy(&v, s.data() + at, 4);
  at += 4;
  return true;
}

}  // namespace

std::string encode(const Frame& f) {
  std::string body;
  body.push_back(static_cast<char>(f.kind));
  for (const auto& field : f.fields) {
    put_u32(body, static_cast<std::uint32_t>(field.size()));
    body += field;
  }
  std::string out;
  put_u32(out, static_cast<std::uint32_t>(body.size()));
  return out + body;
}

std::optional<Frame> take_frame(std::string& buf, bool& bad) {
  bad = false;
  std::size_t at = 0;
  std::uint32_t len = 0;
  if (!get_u32(buf, at, len)) return std::nullopt;
  if (len == 0 || len > kMaxFrame) {
    bad = true;
    return std::nullopt;
  }
  if (buf.size() < 4 + std::size_t{len}) return std::nullopt;
  const std::string body = buf.substr(4, len);
  buf.erase(0, 4 + std::size_t{len});
  Frame f;
  f.kind = static_cast<Kind>(static_cast<std::uint8_t>(body[0]));
  std::size_t p = 1;
  while (p < body.size()) {
    std::uint32_t n = 0;
    if (!get_u32(body, p, n) || p + n > body.size()) {
      bad = true;
      return std::nullopt;
    }
    f.fields.push_back(body.substr(p, n));
    p += n;
  }
  return f;
}

}  // namespace rma::bootstrap::wire
