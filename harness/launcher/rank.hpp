// rank.hpp — one rank of a case as the parent sees it, whichever way it was started: its
// process (a pidfd when it runs on this host), its control channel and bootstrap socket, and
// what became of it. The case watcher and the rank starters share this record.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "launcher/control.hpp"

namespace harness::launcher {

// A descriptor that closes itself.
struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(Fd&& o) noexcept : fd(std::exchange(o.fd, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    reset();
    fd = std::exchange(o.fd, -1);
    return *this;
  }
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int release() { return std::exchange(fd, -1); }
};

// A pidfd for `pid`, or -1 (glibc 2.36's <sys/pidfd.h> lacks C linkage for C++).
int pidfd_open(pid_t pid);
// "SIGSEGV", or "signal N" for a number without a name.
std::string signal_name(int sig);

struct Rank {
  int rank = 0;
  pid_t pid = -1;
  // An MPI launcher's rank is not our child: its exit is seen on its pidfd, its status only
  // through what it told us (a "signal" message) or the launcher's own report.
  bool child = true;
  bool never_connected = false;
  // On another node (its hello's node key differs from ours), or started by a PMIx job's
  // agent: its pid means nothing to us, so its exit is seen when its control channel ends
  // (with the agent's report of how, starter_pmix.cpp).
  bool remote = false;
  std::string host;  // where it ran, as its hello said (host_identity.hpp)
  int exit_seq = 0;  // order in which exits were seen: the first is likelier the cause
  bool code_from_launcher = false;  // exit_code read from the MPI launcher's report
  Fd pidfd;
  std::unique_ptr<ControlChannel> ctrl;
  Fd kv;
  bool hello = false;
  bool result = false;
  bool bye = false;
  bool exited = false;
  bool killed = false;  // stopped by the launcher, not by itself
  bool ctrl_open = true;
  bool kv_open = true;
  int exit_code = 0;
  int exit_signal = 0;
  nlohmann::json result_msg;
  nlohmann::json state_msg;
  std::string binding = "none";

  bool live() const { return !exited; }
};

}  // namespace harness::launcher
