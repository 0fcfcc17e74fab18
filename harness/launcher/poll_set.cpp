// poll_set.cpp — the poll(2) behind PollSet.
#include "launcher/poll_set.hpp"

#include <poll.h>

#include <algorithm>

namespace harness::launcher {

void PollSet::add(int fd, Pass pass, std::function<void()> ready) {
  entries_.push_back({fd, pass, std::move(ready)});
}

void PollSet::wait(std::chrono::steady_clock::duration d) {
  std::vector<pollfd> fds;
  for (const auto& e : entries_) fds.push_back({e.fd, POLLIN, 0});
  const int ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
  if (::poll(fds.data(), fds.size(), std::max(ms, 0)) <= 0) return;
  for (const Pass pass : {Pass::messages, Pass::bootstrap, Pass::exits})
    for (std::size_t i = 0; i < fds.size(); ++i)
      if (fds[i].revents && entries_[i].pass == pass) entries_[i].ready();
}

}  // namespace harness::launcher
