// The control channel (control.hpp): line framing over a stream socket.
#include "launcher/control.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace harness::launcher {

ControlChannel::~ControlChannel() {
  if (fd_ >= 0) ::close(fd_);
}

bool ControlChannel::send(const Message& msg) {
  const std::string line =
      encode(msg).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::lock_guard g(write_mu_);
  std::size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && errno == EAGAIN) {
      pollfd p{fd_, POLLOUT, 0};
      ::poll(&p, 1, 100);
    } else {
      return false;
    }
  }
  return true;
}

std::optional<Message> ControlChannel::next() {
  const auto nl = inbuf_.find('\n');
  if (nl == std::string::npos) return std::nullopt;
  std::string line = inbuf_.substr(0, nl);
  inbuf_.erase(0, nl + 1);
  return decode_line(line);
}

bool ControlChannel::read_available() {
  for (;;) {
    char chunk[8192];
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      inbuf_.append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return true;
    return false;  // end of stream or error
  }
}

std::optional<Message> ControlChannel::receive() {
  for (;;) {
    if (auto m = next()) return m;
    char chunk[8192];
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      inbuf_.append(chunk, static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return std::nullopt;
    }
  }
}

}  // namespace harness::launcher
