// Micro benchmarks of the implementation's internals, each against the obvious floor it
// should be compared with in the same run: a packet through an SPSC ring (against a plain
// memcpy of the same bytes), bootstrap frame encoding and decoding, the reduce kernels
// (against memcpy of the same size), and the lock manager's grant and release.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "bootstrap/kv_wire.hpp"
#include "core/lock_manager.hpp"
#include "core/reduce.hpp"
#include "shm/shm_ring.hpp"

namespace {

using rma::core::PacketHeader;

// --- a packet through the ring: write one, read it back (one thread, warm cache) ----------

void BM_RingWriteRead(benchmark::State& state) {
  const auto payload_bytes = static_cast<std::size_t>(state.range(0));
  std::vector<std::byte> mem(sizeof(rma::shm::RingCtl) + (1 << 20));
  auto* ctl = new (mem.data()) rma::shm::RingCtl;
  std::byte* data = mem.data() + sizeof(rma::shm::RingCtl);
  rma::shm::RingWriter w(ctl, data, 1 << 20);
  rma::shm::RingReader r(ctl, data, 1 << 20);
  std::vector<std::byte> payload(payload_bytes, std::byte{7});
  PacketHeader h = rma::core::make_header(rma::PacketType::put);
  std::size_t got = 0;
  for (auto _ : state) {
    w.try_write(h, payload);
    r.read([&](const PacketHeader&, std::span<const std::byte> p) { got += p.size(); }, 1);
  }
  benchmark::DoNotOptimize(got);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * payload_bytes));
}
BENCHMARK(BM_RingWriteRead)->Arg(0)->Arg(8)->Arg(256)->Arg(4096)->Arg(65536);

void BM_MemcpyFloor(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0)) + sizeof(PacketHeader);
  std::vector<std::byte> a(bytes, std::byte{1}), b(bytes);
  for (auto _ : state) {
    std::memcpy(b.data(), a.data(), bytes);
    std::memcpy(a.data(), b.data(), bytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * state.range(0)));
}
BENCHMARK(BM_MemcpyFloor)->Arg(0)->Arg(8)->Arg(256)->Arg(4096)->Arg(65536);

// --- bootstrap frames --------------------------------------------------------------------

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

// --- reduce kernels ----------------------------------------------------------------------

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

// --- the lock manager ----------------------------------------------------------------------

void BM_LockManagerExclusiveHandoff(benchmark::State& state) {
  // One holder and one waiter: every release grants the waiter, who re-queues.
  rma::core::LockManager lm;
  lm.request({0, rma::LockType::exclusive, nullptr});
  lm.request({1, rma::LockType::exclusive, nullptr});
  int holder = 0;
  for (auto _ : state) {
    auto granted = lm.release(holder);
    const int next = granted.front().origin;
    lm.request({holder, rma::LockType::exclusive, nullptr});
    holder = next;
  }
}
BENCHMARK(BM_LockManagerExclusiveHandoff);

void BM_LockManagerSharedGrantRelease(benchmark::State& state) {
  rma::core::LockManager lm;
  for (auto _ : state) {
    lm.request({1, rma::LockType::shared, nullptr});
    auto g = lm.release(1);
    benchmark::DoNotOptimize(g);
  }
}
BENCHMARK(BM_LockManagerSharedGrantRelease);

}  // namespace
