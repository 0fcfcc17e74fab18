// rank.cpp — the small helpers every rank starter shares, and the plain account of a rank's
// end that a starter without a launcher of its own gives.
#include "launcher/rank.hpp"

#include <sys/syscall.h>

#include <cstring>

#include "launcher/rank_starter.hpp"

namespace harness::launcher {

int pidfd_open(pid_t pid) {
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

std::string RankStarter::how_ended(const Rank& r) const {
  return r.exit_signal ? "was killed by " + signal_name(r.exit_signal)
                       : "exited with code " + std::to_string(r.exit_code);
}

}  // namespace harness::launcher
