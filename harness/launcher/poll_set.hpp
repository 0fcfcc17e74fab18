// poll_set.hpp — one wait of the case watcher over every descriptor of a case: the ranks'
// channels and exits, and whatever the rank starter watches besides (a listening socket, its
// launcher's output and exit). Each descriptor comes with what to do when it is ready.
#pragma once

#include <chrono>
#include <functional>
#include <vector>

namespace harness::launcher {

class PollSet {
 public:
  // Messages first, exits last: a rank's final result is read before its exit is judged.
  enum class Pass { messages = 0, bootstrap = 1, exits = 2 };

  void add(int fd, Pass pass, std::function<void()> ready);
  // Waits up to `d` for any descriptor, then runs the handlers of the ready ones, pass by
  // pass, in the order they were added.
  void wait(std::chrono::steady_clock::duration d);

 private:
  struct Entry {
    int fd;
    Pass pass;
    std::function<void()> ready;
  };
  std::vector<Entry> entries_;
};

}  // namespace harness::launcher
