// What the per-window table of operations costs: a call through a WindowOps slot (loaded
// from the window, as every public call does) against a direct call of the same function.
// Both callees are out of line and do the same small amount of work, so the difference is
// the indirect call itself. Run: ./build/bench/rma_micro_bench --benchmark_filter=Call
#include <benchmark/benchmark.h>

#include "core/window_ops.hpp"

namespace {

using rma::core::Call;
using rma::core::WindowOps;

std::uint64_t g_flushes = 0;

[[gnu::noinline]] rma::Status slot_flush(Call&, int target) {
  g_flushes += static_cast<std::uint64_t>(target);
  return rma::Status::ok();
}

// A table of the real layout; only the slot called is filled.
WindowOps make_table() {
  WindowOps t{};
  t.name = "bench";
  t.flush = slot_flush;
  return t;
}

const WindowOps g_table = make_table();

void BM_DirectCall(benchmark::State& state) {
  Call* call = nullptr;  // never dereferenced by the callee
  for (auto _ : state) {
    rma::Status s = slot_flush(*call, 1);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_DirectCall);

void BM_TableCall(benchmark::State& state) {
  Call* call = nullptr;
  // The table pointer lives in the window and is read on every call; hide it from the
  // optimizer so the call stays indirect, as it is in the library.
  const WindowOps* ops = &g_table;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ops);
    rma::Status s = ops->flush(*call, 1);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_TableCall);

}  // namespace
