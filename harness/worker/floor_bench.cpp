#include "worker/floor_bench.hpp"

#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <optional>
#include <vector>

#include "reports/benchmark_runs.hpp"
#include "rma/pending_names.hpp"
#include "rma/queue_probe.hpp"
#include "worker/bench_loop.hpp"

namespace harness::worker {
namespace {

using nlohmann::json;

constexpr std::size_t kLine = 64;

// The one cache line both ranks write: rank 0's flag and rank 1's answer side by side, so
// every handoff moves this line and nothing else.
struct alignas(kLine) Line {
  std::atomic<std::uint32_t> ping{0};
  std::atomic<std::uint32_t> pong{0};
};
static_assert(sizeof(Line) == kLine);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Waits until `ready()`: spins (the measured case: both ranks run), then yields, then sleeps
// in short naps, so a rank that lost its core never burns the one left.
template <class Ready>
void wait_until(Ready ready) {
  for (int i = 0; i < (1 << 16); ++i) {
    if (ready()) return;
    cpu_relax();
  }
  for (int i = 0; i < 1000; ++i) {
    if (ready()) return;
    ::sched_yield();
  }
  const timespec nap{0, 50'000};
  while (!ready()) ::nanosleep(&nap, nullptr);
}

void wait_for(const std::atomic<std::uint32_t>& word, std::uint32_t value) {
  wait_until([&] { return word.load(std::memory_order_acquire) == value; });
}

// Where the queues start in a segment, and the memcpy destination after them.
constexpr std::size_t kQueuesAt = 4096;
static_assert(2 * kLine <= kQueuesAt, "the round trip's line and the handoff's precede the queues");
std::size_t data_offset() {
  return kQueuesAt + (rma::QueueProbe::bytes() + 4095) / 4096 * 4096;
}

// A segment both ranks map: the line, the handoff's line after it, the shm transport's two
// queues, then room for the largest memcpy (and handoff).
class Segment {
 public:
  ~Segment() {
    if (base_ != MAP_FAILED) ::munmap(base_, bytes_);
  }
  // Rank 0 creates (create = true) before rank 1 opens; the caller orders them by a barrier.
  rma::Status map(const std::string& name, std::size_t bytes, bool create) {
    bytes_ = bytes;
    // Recorded from before it exists until rank 1 has opened it (map_segment).
    if (create) rma::add_pending_name(name);
    const int fd = ::shm_open(name.c_str(), create ? O_RDWR | O_CREAT | O_EXCL : O_RDWR, 0600);
    if (fd < 0) {
      rma::Status s = error("shm_open " + name);
      if (create) rma::remove_pending_name(name);
      return s;
    }
    if (create && ::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
      rma::Status s = error("ftruncate " + name);
      ::close(fd);
      drop(name);
      return s;
    }
    base_ = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ::close(fd);
    if (base_ == MAP_FAILED) {
      rma::Status s = error("mmap " + name);
      if (create) drop(name);
      return s;
    }
    return rma::Status::ok();
  }
  Line& line() { return *static_cast<Line*>(base_); }
  // A line of its own, so the handoff's flags neither move the round trip's line nor meet
  // numbers it left there.
  Line& handoff_line() { return static_cast<Line*>(base_)[1]; }
  void* queues() { return static_cast<char*>(base_) + kQueuesAt; }
  char* data() { return static_cast<char*>(base_) + data_offset(); }

 private:
  // The name of a segment that failed to map: nobody else will open it.
  static void drop(const std::string& name) {
    ::shm_unlink(name.c_str());
    rma::remove_pending_name(name);
  }
  static rma::Status error(const std::string& what) {
    return {rma::ErrorClass::intern, "floor: " + what + ": " + std::strerror(errno)};
  }
  void* base_ = MAP_FAILED;
  std::size_t bytes_ = 0;
};

// Rank 0 does `send` and writes `ping`, rank 1 waits for it, does `receive` and answers in
// `pong` of the same line; ranks past 1 wait in the loop's barrier. `seq` numbers the
// iterations. Rank 0 gets the loop's entries, the others an empty Led.
template <class Send, class Receive>
rma::Result<BenchLoop::Led> line_round_trip(BenchLoop& loop, impl::Implementation& impl, Line& line,
                                            const std::string& name, std::uint32_t& seq,
                                            double bytes, Send send, Receive receive) {
  if (impl.rank() == 0)
    return loop.lead(name, "wait", BenchLoop::each([&] {
                       send();
                       line.ping.store(++seq, std::memory_order_release);
                       wait_for(line.pong, seq);
                       return rma::Status::ok();
                     }),
                     bytes);
  if (impl.rank() == 1)
    RMA_TRY(loop.follow(BenchLoop::each([&] {
                          wait_for(line.ping, ++seq);
                          receive();
                          line.pong.store(seq, std::memory_order_release);
                          return rma::Status::ok();
                        }),
                        false));
  else
    RMA_TRY(loop.follow(BenchLoop::Iteration{}, false));
  return BenchLoop::Led{};
}

// The cache line alone, both ways.
rma::Result<BenchLoop::Led> round_trip(BenchLoop& loop, impl::Implementation& impl, Line& line,
                                       const std::string& name) {
  std::uint32_t seq = 0;
  return line_round_trip(
      loop, impl, line, name, seq, 0, [] {}, [] {});
}

// An 8-byte packet from rank 0 into rank 1's queue and the reply back, through the shm
// transport's own queue code with no engine (rma/queue_probe.hpp): what the am path's
// round trip costs before its software. Ranks past 1 wait in the loop's barrier.
rma::Result<BenchLoop::Led> queue_round_trip(BenchLoop& loop, impl::Implementation& impl,
                                             void* queues) {
  const std::string name = "floor/queue_round_trip/8/shm:floor";
  if (impl.rank() > 1) {
    RMA_TRY(loop.follow(BenchLoop::Iteration{}, false));
    return BenchLoop::Led{};
  }
  rma::QueueProbe probe(queues, impl.rank());
  if (impl.rank() == 0)
    return loop.lead(name, "wait", BenchLoop::each([&] {
                       wait_until([&] { return probe.try_send(); });
                       wait_until([&] { return probe.try_receive(); });
                       return rma::Status::ok();
                     }));
  RMA_TRY(loop.follow(BenchLoop::each([&] {
                        wait_until([&] { return probe.try_answer(); });
                        return rma::Status::ok();
                      }),
                      false));
  return BenchLoop::Led{};
}

// Rank 0 copies `size` bytes from `own` into `shared` before it raises the flag; rank 1
// copies them out into its own `own` before it answers: a message of `size` bytes and its
// reply through shared memory with no protocol, two copies one after the other and the move
// between the cores. `seq` runs on across sizes, so a flag left by the size before never
// matches.
rma::Result<BenchLoop::Led> handoff_round_trip(BenchLoop& loop, impl::Implementation& impl,
                                               Line& line, char* shared, char* own,
                                               std::uint64_t size, std::uint32_t& seq) {
  return line_round_trip(
      loop, impl, line, "floor/handoff/" + std::to_string(size) + "/shm:floor", seq,
      static_cast<double>(size), [&] { std::memcpy(shared, own, size); },
      [&] { std::memcpy(own, shared, size); });
}

// Maps the case's segment on ranks 0 (creating it) and 1, ordered by barriers every rank
// enters; the name is gone once both have it.
rma::Status map_segment(Segment& seg, impl::Implementation& impl, const std::string& name,
                        std::size_t bytes) {
  if (impl.rank() == 0) RMA_TRY(seg.map(name, bytes, true));
  RMA_TRY(impl.barrier());
  if (impl.rank() == 1) RMA_TRY(seg.map(name, bytes, false));
  RMA_TRY(impl.barrier());
  if (impl.rank() == 0) {
    ::shm_unlink(name.c_str());
    rma::remove_pending_name(name);
  }
  return rma::Status::ok();
}

class Floor {
 public:
  Floor(const suite::CaseSpec& spec, impl::Implementation& impl, launcher::ControlChannel& ctrl,
        StateBoard& board)
      : spec_(spec), impl_(impl), ctrl_(ctrl), board_(board) {
    if (spec.bench.contains("sizes"))
      for (const auto& s : spec.bench["sizes"]) sizes_.push_back(s.get<std::uint64_t>());
  }

  json run() {
    json result = {{"rank", impl_.rank()}, {"early", false}};
    json entries = json::array();
    rma::Status st = measure(entries);
    result["status"] = st ? "pass" : "error";
    result["failures"] = json::array();
    if (!st) {
      result["early"] = true;
      result["failures"].push_back({{"where", "floor"}, {"message", st.to_string()}});
    }
    if (impl_.rank() == 0 && st) report_figures(ctrl_, std::move(entries));
    return result;
  }

 private:
  rma::Status measure(json& entries) {
    if (impl_.size() != 2)
      return {rma::ErrorClass::arg,
              "floor: runs on exactly 2 ranks, not " + std::to_string(impl_.size())};
    const std::size_t largest =
        sizes_.empty() ? 0 : *std::max_element(sizes_.begin(), sizes_.end());
    const std::string name = "/" + spec_.name_prefix + ".floor";
    board_.set_phase("floor (setup)");
    const bool origin = impl_.rank() == 0;
    RMA_TRY(map_segment(seg_, impl_, name, data_offset() + largest));

    BenchLoop loop(impl_, ctrl_, spec_.bench);
    board_.set_phase("floor (cache-line round trip)");
    auto rt = round_trip(loop, impl_, seg_.line(), "floor/cache_line_round_trip/64/shm:floor");
    if (!rt) return rt.status();
    if (origin) annotate(rt.value().entries, "cache_line_round_trip", kLine, entries);
    board_.set_phase("floor (queue round trip)");
    auto qrt = queue_round_trip(loop, impl_, seg_.queues());
    if (!qrt) return qrt.status();
    if (origin) annotate(qrt.value().entries, "queue_round_trip", 8, entries);

    board_.set_phase("floor (memcpy)");
    // Rank 0's source, rank 1's destination of the handoff: each rank's private memory.
    std::vector<char> source(largest, 1);
    for (const std::uint64_t size : sizes_) {
      if (!origin) {
        // Waits in the barrier, as a passive target does.
        RMA_TRY(loop.follow(BenchLoop::Iteration{}, false));
        continue;
      }
      char* dst = seg_.data();
      auto led = loop.lead("floor/memcpy/" + std::to_string(size) + "/shm:floor", "wait",
                           BenchLoop::each([&] {
                             std::memcpy(dst, source.data(), size);
                             benchmark::ClobberMemory();
                             return rma::Status::ok();
                           }),
                           static_cast<double>(size));
      if (!led) return led.status();
      annotate(led.value().entries, "memcpy", size, entries);
    }
    return handoffs(loop, source.data(), entries);
  }

  // The handoff round trip at every size, on the handoff's own line.
  rma::Status handoffs(BenchLoop& loop, char* own, json& entries) {
    board_.set_phase("floor (handoff)");
    std::uint32_t seq = 0;
    for (const std::uint64_t size : sizes_) {
      auto led = handoff_round_trip(loop, impl_, seg_.handoff_line(), seg_.data(), own, size, seq);
      if (!led) return led.status();
      if (impl_.rank() == 0) annotate(led.value().entries, "handoff", size, entries);
    }
    return rma::Status::ok();
  }

  void annotate(json& led, const std::string& op, std::uint64_t size, json& entries) const {
    for (auto& e : led) {
      e["pattern"] = reports::kFloorPatternName;
      e["op"] = op;
      e["sync"] = op;
      e["size"] = size;
      e["metric"] = "latency";
      e["target"] = "wait";
      e["backend"] = "shm";
      e["path"] = "floor";
      e["provider"] = "";
      e["flavor"] = "";
      e["ranks"] = 2;
      e["impl"] = "hardware";
      // No RMA call, so no packet: a measured zero, not a missing figure.
      e["messages_expected"] = 0;
      entries.push_back(std::move(e));
    }
  }

  const suite::CaseSpec& spec_;
  impl::Implementation& impl_;
  launcher::ControlChannel& ctrl_;
  StateBoard& board_;
  std::vector<std::uint64_t> sizes_;
  Segment seg_;
};

}  // namespace

json run_floor_bench(const suite::CaseSpec& spec, impl::Implementation& impl,
                     launcher::ControlChannel& ctrl, StateBoard& board) {
  Floor f(spec, impl, ctrl, board);
  return f.run();
}

namespace {

// Rank 0: the median of the led figure's repetitions where there are several, else its one
// run, in microseconds; the other ranks 0.
rma::Result<double> median_us(const impl::Implementation& impl,
                              const rma::Result<BenchLoop::Led>& led) {
  if (!led) return led.status();
  if (impl.rank() != 0) return 0.0;
  const std::vector<reports::BenchmarkRun> runs = reports::benchmark_runs(led.value().entries);
  const std::optional<reports::Spread> t = runs.empty() ? std::nullopt : runs.front().time_ns();
  if (!t) return rma::Status{rma::ErrorClass::intern, "floor: no round-trip figure"};
  return t->median / 1000.0;
}

}  // namespace

rma::Result<FloorRoundTrips> floor_round_trips(const suite::CaseSpec& spec,
                                               impl::Implementation& impl,
                                               launcher::ControlChannel& ctrl,
                                               const std::string& tag) {
  if (impl.size() < 2) return rma::Status{rma::ErrorClass::arg, "floor: needs two ranks"};
  Segment seg;
  RMA_TRY(map_segment(seg, impl, "/" + spec.name_prefix + ".floor." + tag, data_offset()));
  BenchLoop loop(impl, ctrl, spec.bench);
  auto line = median_us(
      impl, round_trip(loop, impl, seg.line(), "floor/cache_line_round_trip/64/shm:floor"));
  if (!line) return line.status();
  auto queue = median_us(impl, queue_round_trip(loop, impl, seg.queues()));
  if (!queue) return queue.status();
  return FloorRoundTrips{line.value(), queue.value()};
}

rma::Result<FloorRoundTrips> raw_round_trip(const suite::CaseSpec& spec, impl::Implementation& impl,
                                            launcher::ControlChannel& ctrl) {
  if (impl.size() < 2) return rma::Status{rma::ErrorClass::arg, "floor: needs two ranks"};
  BenchLoop loop(impl, ctrl, spec.bench);
  std::uint64_t word = 0;  // 8 bytes each way, as bench/pingpong.lua -o size=8
  if (impl.rank() == 0) {
    auto rt = median_us(impl, loop.lead("floor/send_recv_round_trip/8/" + spec.backend + ":floor",
                                        "wait", BenchLoop::each([&] {
                                          RMA_TRY(impl.send(1, &word, sizeof word, kBenchRawTag));
                                          return impl.recv(1, &word, sizeof word, kBenchRawTag);
                                        })));
    if (!rt) return rt.status();
    return FloorRoundTrips{rt.value(), std::nullopt};
  }
  if (impl.rank() == 1) {
    const BenchLoop::Iteration answer = BenchLoop::each([&] {
      RMA_TRY(impl.recv(0, &word, sizeof word, kBenchRawTag));
      return impl.send(0, &word, sizeof word, kBenchRawTag);
    });
    RMA_TRY(loop.follow(answer, false));
  } else {
    RMA_TRY(loop.follow(BenchLoop::Iteration{}, false));
  }
  return FloorRoundTrips{};
}

}  // namespace harness::worker
