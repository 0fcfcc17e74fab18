// Micro benchmark of the shm transport's receive queue: a packet written and read back through
// the queue (one thread, warm cache), against the floor it should be compared with in the same
// run, a plain memcpy of the same bytes. Run: ./build/bench/rma_micro_bench
#include <benchmark/benchmark.h>

#include <cstring>
#include <new>
#include <vector>

#include "progress/packet.hpp"
#include "shm/shm_queue.hpp"

namespace {

using rma::progress::PacketHeader;

// --- a packet through the queue: write one, read it back (one thread, warm cache) ----------

void BM_QueueWriteRead(benchmark::State& state) {
  const auto payload_bytes = static_cast<std::size_t>(state.range(0));
  std::vector<std::byte> mem(sizeof(rma::shm::QueueCtl) + (1 << 20));
  auto* ctl = new (mem.data()) rma::shm::QueueCtl;
  std::byte* data = mem.data() + sizeof(rma::shm::QueueCtl);
  rma::shm::QueueWriter w(ctl, data, 1 << 20, 0);
  rma::shm::QueueReader r(ctl, data, 1 << 20);
  std::vector<std::byte> payload(payload_bytes, std::byte{7});
  PacketHeader h = rma::progress::make_header(rma::PacketType::put);
  std::size_t got = 0;
  for (auto _ : state) {
    w.try_write(h, payload);
    r.read([&](int, const PacketHeader&, std::span<const std::byte> p) { got += p.size(); }, 1);
  }
  benchmark::DoNotOptimize(got);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * payload_bytes));
}
BENCHMARK(BM_QueueWriteRead)->Arg(0)->Arg(8)->Arg(256)->Arg(4096)->Arg(65536);

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

}  // namespace
