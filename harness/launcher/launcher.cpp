// launcher.cpp — run_case: the choice of rank starter for a case, handed to the case watcher;
// the run's stop request; and the sweep of segments earlier runs left behind.
#include "launcher/launcher.hpp"

#include <dirent.h>
#include <signal.h>
#include <sys/mman.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "launcher/case_watcher.hpp"

namespace harness::launcher {
namespace {

std::atomic<bool> g_stop{false};

}  // namespace

CaseOutcome run_case(const suite::CaseSpec& spec, const LaunchOptions& options) {
  const std::unique_ptr<RankStarter> starter = options.pmix       ? pmix_starter(options)
                                               : options.external ? mpi_starter(options)
                                                                  : fork_starter(options);
  return watch_case(spec, options, *starter);
}

void request_stop() {
  g_stop.store(true);
}
bool stop_requested() {
  return g_stop.load();
}

void sweep_case_segments(const std::string& name_prefix) {
  const std::string prefix = name_prefix + ".";
  DIR* d = ::opendir("/dev/shm");
  if (!d) return;
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d))
    if (std::string_view(e->d_name).starts_with(prefix)) names.emplace_back(e->d_name);
  ::closedir(d);
  for (const auto& n : names) ::shm_unlink(("/" + n).c_str());
}

void sweep_stale_segments() {
  DIR* d = ::opendir("/dev/shm");
  if (!d) return;
  std::vector<std::string> stale;
  while (dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n.rfind("rmabench.", 0) != 0) continue;
    const auto dot = n.find('.', 9);
    const pid_t owner = static_cast<pid_t>(std::atol(n.substr(9, dot - 9).c_str()));
    if (owner > 0 && ::kill(owner, 0) != 0 && errno == ESRCH) stale.push_back(n);
  }
  ::closedir(d);
  for (const auto& n : stale) ::shm_unlink(("/" + n).c_str());
}

}  // namespace harness::launcher
