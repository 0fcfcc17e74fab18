// EngineMutex under contention: mutual exclusion, and every sleeper woken (a lost wake-up
// would leave a thread asleep on the futex and the test at its timeout).
#include "progress/engine_mutex.hpp"

#include <gtest/gtest.h>

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
