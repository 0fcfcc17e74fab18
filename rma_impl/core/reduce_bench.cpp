// Micro benchmarks of the reduce kernels, against the floor they should be compared with in
// the same run: memcpy of the same size. Run: ./build/bench/rma_micro_bench
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "core/reduce.hpp"

namespace {

template <rma::Op Op, rma::Dtype T>
void BM_Reduce(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  const std::size_t count = bytes / rma::size_of(T);
  std::vector<std::byte> target(bytes), origin(bytes, std::byte{1});
  for (auto _ : state) {
    auto s = rma::core::reduce(Op, T, target.data(), origin.data(), count);
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_Reduce<rma::Op::sum, rma::Dtype::i64>)->Arg(8)->Arg(4096)->Arg(1 << 20);
BENCHMARK(BM_Reduce<rma::Op::sum, rma::Dtype::f64>)->Arg(8)->Arg(4096)->Arg(1 << 20);
BENCHMARK(BM_Reduce<rma::Op::max, rma::Dtype::i32>)->Arg(4096)->Arg(1 << 20);
BENCHMARK(BM_Reduce<rma::Op::replace, rma::Dtype::u8>)->Arg(4096)->Arg(1 << 20);

void BM_ReduceFloorMemcpy(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  std::vector<std::byte> target(bytes), origin(bytes, std::byte{1});
  for (auto _ : state) {
    std::memcpy(target.data(), origin.data(), bytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(BM_ReduceFloorMemcpy)->Arg(8)->Arg(4096)->Arg(1 << 20);

}  // namespace
