// control_socket.hpp — where ranks that another program's launcher starts reach the parent's
// control channel (control.hpp): an abstract Unix socket when they all run in the parent's
// network namespace, a Unix socket file when they share its host but not its network
// namespace (a file is reached from any of them), else TCP on an address the parent chose
// (ranks on other hosts). The endpoint travels to the ranks as one word: "@name",
// "unix:/path" or "tcp:ADDRESS:PORT".
#pragma once

#include <chrono>
#include <string>

namespace harness::launcher {

// How the ranks of a case reach the parent.
struct ControlReach {
  enum class Kind { local, path, tcp };
  Kind kind = Kind::local;
  // tcp: the IPv4/IPv6 address the parent binds (a port is picked); path: the socket file,
  // which the listener's owner removes.
  std::string address;
};

// A listening descriptor (non-blocking, close-on-exec) and the endpoint word for the ranks.
struct ControlListener {
  int fd = -1;
  std::string endpoint;
  std::string error;  // when fd < 0: what failed, with errno's text
};
// `name` names the abstract socket (local); tcp binds reach.address on a free port.
ControlListener listen_control(const ControlReach& reach, const std::string& name);

// The rank's side: a connected descriptor, or -1 with `error` set. TCP gives up after
// `limit` (a rank that cannot reach its parent must not wait for it forever) and turns on
// keepalive, so that a parent whose host vanished is noticed within about 15 s.
int connect_control(const std::string& endpoint, std::chrono::milliseconds limit,
                    std::string* error);

// An IPv4 address of this host that other nodes reach: its name's, unless that is a loopback
// one (Debian's 127.0.1.1), then the first interface up that is not a loopback; 127.0.0.1
// when there is none.
std::string own_address();

}  // namespace harness::launcher
