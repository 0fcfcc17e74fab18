// kv_wire.hpp — the frames of the launcher's key-value service, shared by the client in each
// rank and the server in the rmabench parent.
//
// A frame is a 32-bit length, a one-byte kind and length-prefixed strings. Requests: put
// (key, value), get (key), fence. Replies: value, fence_done, error (text).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rma::bootstrap::wire {

enum class Kind : std::uint8_t {
  put = 1,
  get = 2,
  fence = 3,
  value = 4,
  fence_done = 5,
  error = 6
};

struct Frame {
  Kind kind = Kind::error;
  std::vector<std::string> fields;
};

std::string encode(const Frame& f);
// Takes one whole frame off the front of `buf` if there is one; nullopt if more bytes are
// needed. Sets `bad` on a malformed frame.
std::optional<Frame> take_frame(std::string& buf, bool& bad);

// Upper bound on one frame, so a confused peer cannot make the other side allocate without
// limit.
inline constexpr std::size_t kMaxFrame = 1 << 20;

}  // namespace rma::bootstrap::wire
