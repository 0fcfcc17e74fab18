// Micro benchmark of the launcher's key-value frames: one put frame encoded and decoded.
// Run: ./build/bench/rma_micro_bench
#include <benchmark/benchmark.h>

#include <string>

#include "bootstrap/kv_wire.hpp"

namespace {

void BM_KvFrameEncodeDecode(benchmark::State& state) {
  using namespace rma::bootstrap::wire;
  const Frame f{Kind::put, {"fabric.addr.12", std::string(64, 'x')}};
  for (auto _ : state) {
    std::string buf = encode(f);
    bool bad = false;
    auto back = take_frame(buf, bad);
    benchmark::DoNotOptimize(back);
  }
}
BENCHMARK(BM_KvFrameEncodeDecode);

}  // namespace
