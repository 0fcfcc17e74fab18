// EngineMutex under contention: mutual exclusion, and every sleeper woken (a lost wake-up
// would leave a thread asleep on the futex and the test at its timeout).
#include "progress/engine_mutex.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <vector>

namespace rma::progress {
namespace {

TEST(EngineMutex, ExcludesAndWakesEveryWaiter) {
  EngineMutex mu;
  constexpr int kThreads = 4;
  constexpr int kRounds = 20000;
  long counter = 0;  // plain: only the lock orders the increments
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kRounds; ++i) {
        EngineLock lk(mu);
        ++counter;
        // Now and then hold the lock long enough for the others to give up spinning and
        // sleep on the futex, so the contended paths run too.
        if (i % 512 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(counter, long{kThreads} * kRounds);
}

// Ranks are forked from a process that registered for membarrier at start; whether the
// kernel carries that over or the child's first sleeper registers again, its sleepers wake.
TEST(EngineMutex, WakesEveryWaiterInAForkedChild) {
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    EngineMutex mu;
    long counter = 0;
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t)
      threads.emplace_back([&] {
        for (int i = 0; i < 5000; ++i) {
          EngineLock lk(mu);
          ++counter;
          if (i % 256 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
      });
    for (auto& th : threads) th.join();
    ::_exit(counter == 3L * 5000 ? 0 : 1);
  }
  // A lost wake-up leaves the child asleep: bounded here instead of by ctest's timeout.
  int status = 0;
  pid_t done = 0;
  for (int waited_ms = 0; waited_ms < 60000 && done == 0; waited_ms += 10) {
    done = ::waitpid(pid, &status, WNOHANG);
    if (done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (done == 0) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    FAIL() << "the child's threads did not finish within 60 s";
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(EngineMutex, TryLockFailsWhileHeld) {
  EngineMutex mu;
  EngineLock lk(mu);
  bool got = true;
  std::thread([&] { got = mu.try_lock(); }).join();
  EXPECT_FALSE(got);
  lk.unlock();
  std::thread([&] {
    got = mu.try_lock();
    if (got) mu.unlock();
  }).join();
  EXPECT_TRUE(got);
}

}  // namespace
}  // namespace rma::progress
