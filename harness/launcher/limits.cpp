#include "launcher/limits.hpp"

#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "launcher/launcher.hpp"

namespace harness::launcher {
namespace {

constexpr rlim_t kFdsPerRank = 3;
constexpr rlim_t kFdsSpare = 64;       // reports, the log, libraries
constexpr rlim_t kThreadsPerRank = 3;  // main thread, progress agent, one spare
constexpr rlim_t kTasksSpare = 64;

std::string num(rlim_t v) {
  return v == RLIM_INFINITY ? "unlimited" : std::to_string(v);
}

// Raises the soft limit to `need` if the hard limit allows; else throws naming `what`.
void ensure(int resource, rlim_t need, const char* what, const char* fix, int ranks) {
  rlimit rl{};
  if (::getrlimit(resource, &rl) != 0) return;  // cannot ask: let the spawn say what fails
  if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need) return;
  if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need) {
    rlimit raised{need, rl.rlim_max};
    if (::setrlimit(resource, &raised) == 0) return;
  }
  throw LaunchError(std::to_string(ranks) + " ranks need about " + num(need) + " " + what +
                    "; the limit is " + num(rl.rlim_cur) + " (hard " + num(rl.rlim_max) +
                    "): raise it with `" + fix + " " + num(need) + "` or run fewer ranks" +
                    (errno ? std::string(" (") + std::strerror(errno) + ")" : ""));
}

}  // namespace

void ensure_limits_for(int ranks) {
  const auto n = static_cast<rlim_t>(ranks);
  errno = 0;
  ensure(RLIMIT_NOFILE, n * kFdsPerRank + kFdsSpare, "open files", "ulimit -n", ranks);
  // RLIMIT_NPROC counts every task of the user, ours and others': this is a lower bound.
  ensure(RLIMIT_NPROC, n * kThreadsPerRank + kTasksSpare, "processes and threads", "ulimit -u",
         ranks);
}

}  // namespace harness::launcher
