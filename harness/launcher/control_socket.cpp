// control_socket.cpp — the control channel's endpoints (see the header): abstract Unix
// sockets within one network namespace, TCP across them.
#include "launcher/control_socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <utility>

namespace harness::launcher {
namespace {

// "@name" or "unix:/path" as a socket address.
sockaddr_un unix_address(const std::string& endpoint, socklen_t* len) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  // "@name": a leading NUL in sun_path makes the name abstract (Linux).
  const bool abstract = endpoint.rfind('@', 0) == 0;
  const std::string name = endpoint.substr(abstract ? 1 : 5);
  const std::size_t n = std::min(name.size(), sizeof(a.sun_path) - 2);
  std::memcpy(a.sun_path + (abstract ? 1 : 0), name.data(), n);
  *len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + (abstract ? 1 : 0) + n);
  return a;
}

std::string errno_text(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

// Closes fd keeping errno, for the error paths.
ControlListener failed(std::string why) {
  ControlListener l;
  l.error = std::move(why);
  return l;
}

int fail_closing(int fd) {
  const int e = errno;
  ::close(fd);
  errno = e;
  return -1;
}

// `endpoint`: "@name", or "unix:/path" (any file there is replaced).
ControlListener listen_unix(const std::string& endpoint) {
  ControlListener l;
  l.endpoint = endpoint;
  if (endpoint.rfind("unix:", 0) == 0) ::unlink(endpoint.substr(5).c_str());
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return failed(errno_text("socket"));
  socklen_t len = 0;
  const sockaddr_un a = unix_address(l.endpoint, &len);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&a), len) != 0 || ::listen(fd, 256) != 0) {
    l.error = errno_text("bind " + l.endpoint);
    ::close(fd);
    return l;
  }
  l.fd = fd;
  return l;
}

// A numeric address and port, resolved without DNS.
addrinfo* numeric_address(const std::string& host, const std::string& port) {
  addrinfo hints{};
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  return ::getaddrinfo(host.c_str(), port.c_str(), &hints, &res) == 0 ? res : nullptr;
}

std::string endpoint_of(const sockaddr_storage& ss) {
  char host[INET6_ADDRSTRLEN] = {};
  int port = 0;
  if (ss.ss_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&ss);
    ::inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
    port = ntohs(a->sin6_port);
    return "tcp:[" + std::string(host) + "]:" + std::to_string(port);
  }
  const auto* a = reinterpret_cast<const sockaddr_in*>(&ss);
  ::inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
  port = ntohs(a->sin_port);
  return "tcp:" + std::string(host) + ":" + std::to_string(port);
}

ControlListener listen_tcp(const std::string& address) {
  ControlListener l;
  addrinfo* ai = numeric_address(address, "0");
  if (!ai) return failed("control address '" + address + "' is not a numeric IP address");
  const int fd = ::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    ::freeaddrinfo(ai);
    return failed(errno_text("socket"));
  }
  const bool bound = ::bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && ::listen(fd, 256) == 0;
  ::freeaddrinfo(ai);
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  if (!bound || ::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) {
    l.error = errno_text("bind " + address);
    ::close(fd);
    return l;
  }
  l.fd = fd;
  l.endpoint = endpoint_of(ss);
  return l;
}

// Keepalive probes after 5 s idle, every 2 s, 4 unanswered: a dead peer is found in ~13 s;
// data unacknowledged for 15 s ends the connection too (keepalive waits while data is out).
void keep_alive(int fd) {
  const int on = 1, idle = 5, interval = 2, count = 4, unacked_ms = 15000;
  ::setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &unacked_ms, sizeof unacked_ms);
  ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

// A non-blocking connect bounded by `limit`, then back to blocking.
int connect_bounded(int fd, const sockaddr* a, socklen_t len, std::chrono::milliseconds limit) {
  const int flags = ::fcntl(fd, F_GETFL);
  ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  if (::connect(fd, a, len) != 0) {
    if (errno != EINPROGRESS) return -1;
    pollfd p{fd, POLLOUT, 0};
    const int n = ::poll(&p, 1, static_cast<int>(limit.count()));
    if (n == 0) errno = ETIMEDOUT;
    if (n <= 0) return -1;
    int err = 0;
    socklen_t el = sizeof err;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) != 0) return -1;
    if (err != 0) {
      errno = err;
      return -1;
    }
  }
  ::fcntl(fd, F_SETFL, flags);
  return 0;
}

int connect_tcp(const std::string& endpoint, std::chrono::milliseconds limit, std::string* error) {
  // "tcp:ADDR:PORT" or "tcp:[V6]:PORT".
  const std::string rest = endpoint.substr(4);
  const auto colon = rest.rfind(':');
  std::string host = rest.substr(0, colon);
  if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  addrinfo* ai =
      colon == std::string::npos ? nullptr : numeric_address(host, rest.substr(colon + 1));
  if (!ai) {
    *error = "malformed control endpoint " + endpoint;
    return -1;
  }
  const int fd = ::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || connect_bounded(fd, ai->ai_addr, ai->ai_addrlen, limit) != 0) {
    *error = errno_text("connect " + endpoint);
    ::freeaddrinfo(ai);
    return fd < 0 ? -1 : fail_closing(fd);
  }
  ::freeaddrinfo(ai);
  keep_alive(fd);
  return fd;
}

int connect_unix(const std::string& endpoint, std::string* error) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    *error = errno_text("socket");
    return -1;
  }
  socklen_t len = 0;
  const sockaddr_un a = unix_address(endpoint, &len);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&a), len) != 0) {
    *error = errno_text("connect " + endpoint);
    return fail_closing(fd);
  }
  return fd;
}

}  // namespace

ControlListener listen_control(const ControlReach& reach, const std::string& name) {
  switch (reach.kind) {
    case ControlReach::Kind::tcp:
      return listen_tcp(reach.address);
    case ControlReach::Kind::path:
      return listen_unix("unix:" + reach.address);
    case ControlReach::Kind::local:
      break;
  }
  return listen_unix("@" + name);
}

int connect_control(const std::string& endpoint, std::chrono::milliseconds limit,
                    std::string* error) {
  return endpoint.rfind("tcp:", 0) == 0 ? connect_tcp(endpoint, limit, error)
                                        : connect_unix(endpoint, error);
}

// An address of this host that other nodes reach: its name's, unless that is a loopback one
// (Debian's 127.0.1.1), then the first interface up that is not a loopback.
std::string own_address() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  addrinfo hints{};
  hints.ai_family = AF_INET;
  addrinfo* res = nullptr;
  std::string found;
  if (::getaddrinfo(name, nullptr, &hints, &res) == 0) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(res->ai_addr);
    if ((ntohl(a->sin_addr.s_addr) >> 24) != 127) {
      char text[INET_ADDRSTRLEN] = {};
      found = ::inet_ntop(AF_INET, &a->sin_addr, text, sizeof text);
    }
    ::freeaddrinfo(res);
  }
  ifaddrs* ifs = nullptr;
  if (found.empty() && ::getifaddrs(&ifs) == 0) {
    for (ifaddrs* i = ifs; i && found.empty(); i = i->ifa_next)
      if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET && (i->ifa_flags & IFF_UP) &&
          !(i->ifa_flags & IFF_LOOPBACK)) {
        char text[INET_ADDRSTRLEN] = {};
        found = ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr,
                            text, sizeof text);
      }
    ::freeifaddrs(ifs);
  }
  return found.empty() ? "127.0.0.1" : found;
}

}  // namespace harness::launcher
