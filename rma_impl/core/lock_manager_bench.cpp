// Micro benchmarks of the lock manager (am protocol, fabric direct path): an exclusive hand-off
// between two origins, and a shared grant and release. Run: ./build/bench/rma_micro_bench
#include <benchmark/benchmark.h>

#include "core/lock_manager.hpp"

namespace {

void BM_LockManagerExclusiveHandoff(benchmark::State& state) {
  // One holder and one waiter: every release grants the waiter, who re-queues.
  rma::core::LockManager lm;
  lm.request({0, rma::LockType::exclusive, {}});
  lm.request({1, rma::LockType::exclusive, {}});
  int holder = 0;
  for (auto _ : state) {
    auto granted = lm.release(holder);
    const int next = granted.front().origin;
    lm.request({holder, rma::LockType::exclusive, {}});
    holder = next;
  }
}
BENCHMARK(BM_LockManagerExclusiveHandoff);

void BM_LockManagerSharedGrantRelease(benchmark::State& state) {
  rma::core::LockManager lm;
  for (auto _ : state) {
    lm.request({1, rma::LockType::shared, {}});
    auto g = lm.release(1);
    benchmark::DoNotOptimize(g);
  }
}
BENCHMARK(BM_LockManagerSharedGrantRelease);

}  // namespace
