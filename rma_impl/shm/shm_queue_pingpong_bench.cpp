// Micro benchmark of what the shm transport costs between two processes on two cores: a
// packet round trip through the receive queues, through the mailbox slots, through the whole
// transport, and through the engine's send/recv over it, against the floor `rmabench bench`
// reports (one cache line both processes write) and against a line per direction, each read
// as a multiple of the floor measured in the same benchmark just before it (the machine's two
// virtual cores move between placements with several times different handoff costs). The
// rungs split the am path's round trip: the transport's own, then what the engine adds.
// AnswerDelay runs the mailbox rung with a stretch of work on each side before it answers:
// how the round trip grows with the time software takes to answer; UnevenAnswer gives the
// two sides stretches of different lengths.
// The Loopback rungs run the same round trips with both ranks in one thread: no second core,
// no handoff, every line already in this core's cache and every wait over at its first look,
// so they give the least software each rung runs per round trip.
// Run: ./build/bench/rma_micro_bench --benchmark_filter='PingPong|Loopback'
#include <benchmark/benchmark.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "progress/bulk.hpp"
#include "progress/call_tracker.hpp"
#include "progress/cpu_relax.hpp"
#include "progress/engine.hpp"
#include "progress/p2p.hpp"
#include "progress/packet.hpp"
#include "shm/shm_mailbox.hpp"
#include "shm/shm_queue.hpp"
#include "testing/thread_job.hpp"

namespace {

using rma::progress::PacketHeader;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kQueueBytes = 1 << 15;
constexpr std::uint32_t kFloorRounds = 100000;
// Longer than any round trip, however the two processes are scheduled: the peer is gone.
constexpr auto kPatience = std::chrono::seconds(10);

struct alignas(64) OneLine {
  std::atomic<std::uint32_t> ping{0};
  std::atomic<std::uint32_t> pong{0};
};
struct alignas(64) Word {
  std::atomic<std::uint32_t> v{0};
};

// Shared by the two processes (an anonymous shared mapping made before the fork).
struct Shared {
  OneLine one;
  Word ping, pong;  // a line per direction
  Word stop;        // the parent is done: the child leaves its loop
  rma::shm::QueueCtl ctl[2];
  alignas(64) std::byte data[2][kQueueBytes];
  rma::shm::MailboxSlot slots[4];  // slot src→dst at [src * 2 + dst]
};

// Spins (the measured case: both processes run), then yields, then naps, so a process that
// lost its core never burns the one left; false once `give_up()` says the peer is gone.
template <class Ready, class GiveUp>
bool wait_until(Ready ready, GiveUp give_up) {
  for (int i = 0; i < (1 << 16); ++i) {
    if (ready()) return true;
    rma::progress::cpu_relax();
  }
  for (int i = 0; i < 1000; ++i) {
    if (ready()) return true;
    ::sched_yield();
  }
  const timespec nap{0, 50'000};
  while (!ready()) {
    if (give_up()) return false;
    ::nanosleep(&nap, nullptr);
  }
  return true;
}

// The first two CPUs this process may run on, or false.
bool two_cpus(int& a, int& b) {
  cpu_set_t set;
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return false;
  a = b = -1;
  for (int c = 0; c < CPU_SETSIZE && b < 0; ++c) {
    if (!CPU_ISSET(c, &set)) continue;
    (a < 0 ? a : b) = c;
  }
  return b >= 0;
}

void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  ::sched_setaffinity(0, sizeof set, &set);
}

// A mapping, the child serving on the second CPU and this process pinned to the first; the
// destructor stops the child, reaps it and restores this process's CPU set.
class PingPong {
 public:
  explicit PingPong(benchmark::State& state) : state_(state) {
    if (!two_cpus(cpu_a_, cpu_b_)) {
      state.SkipWithError("needs two CPUs");
      return;
    }
    void* m =
        ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
      state.SkipWithError("mmap failed");
      return;
    }
    s_ = new (m) Shared;
    ::sched_getaffinity(0, sizeof saved_, &saved_);
  }
  ~PingPong() {
    if (!s_) return;
    stop();
    s_->~Shared();
    ::munmap(s_, sizeof(Shared));
    ::sched_setaffinity(0, sizeof saved_, &saved_);
  }
  bool ok() const { return s_ != nullptr; }
  Shared& s() { return *s_; }

  // Forks the child running serve(shared, give_up) until stopped, and pins both sides; false
  // (the benchmark skipped) when it cannot fork.
  template <class Serve>
  bool start(Serve serve) {
    const pid_t parent = ::getpid();
    child_ = ::fork();
    if (child_ < 0) {
      state_.SkipWithError("fork failed");
      return false;
    }
    if (child_ == 0) {
      // Ends with its parent, even one that died before the signal was asked for.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(1);
      pin(cpu_b_);
      Shared& sh = *s_;
      serve(sh, [&sh, parent] {
        return sh.stop.v.load(std::memory_order_acquire) != 0 || ::getppid() != parent;
      });
      ::_exit(0);
    }
    pin(cpu_a_);
    return true;
  }
  // The parent's wait gives up when the child has exited or took longer than kPatience.
  template <class Ready>
  // The deadline is set at the first nap, so a round trip that is answered while spinning (the
  // measured case) reads no clock.
  bool wait(Ready ready) {
    std::optional<Clock::time_point> deadline;
    const bool ok = wait_until(ready, [&] {
      if (!deadline) deadline = Clock::now() + kPatience;
      return ::waitpid(child_, nullptr, WNOHANG) != 0 || Clock::now() > *deadline;
    });
    if (!ok) state_.SkipWithError("the child process stopped answering");
    return ok;
  }
  // For a child that cannot be told to stop (it waits inside an engine).
  void kill_child() {
    if (child_ > 0) ::kill(child_, SIGKILL);
  }
  pid_t child() const { return child_; }
  void stop() {
    if (!s_ || child_ <= 0) return;
    s_->stop.v.store(1, std::memory_order_release);
    ::waitpid(child_, nullptr, 0);
    child_ = -1;
    s_->stop.v.store(0, std::memory_order_release);
  }

 private:
  benchmark::State& state_;
  Shared* s_ = nullptr;
  pid_t child_ = -1;
  int cpu_a_ = -1, cpu_b_ = -1;
  cpu_set_t saved_{};
};

// How each side stores its word: a release store (what a handoff needs), the same followed
// by a full fence, or a seq_cst store (GCC: a locked exchange), the two ways a sender gets
// the store-load order a doorbell's handshake asks of it.
enum class Publish { release, fence, exchange };

void publish(std::atomic<std::uint32_t>& word, std::uint32_t v, Publish how) {
  switch (how) {
    case Publish::release:
      word.store(v, std::memory_order_release);
      break;
    case Publish::fence:
      word.store(v, std::memory_order_release);
      std::atomic_thread_fence(std::memory_order_seq_cst);
      break;
    case Publish::exchange:
      word.store(v, std::memory_order_seq_cst);
      break;
  }
}

// The two words of a handoff: the parent writes `ping`, the child answers in `pong`.
struct Handoff {
  std::atomic<std::uint32_t>& (*ping)(Shared&);
  std::atomic<std::uint32_t>& (*pong)(Shared&);
  Publish how = Publish::release;
};
std::atomic<std::uint32_t>& one_line_ping(Shared& s) {
  return s.one.ping;
}
std::atomic<std::uint32_t>& one_line_pong(Shared& s) {
  return s.one.pong;
}
std::atomic<std::uint32_t>& own_line_ping(Shared& s) {
  return s.ping.v;
}
std::atomic<std::uint32_t>& own_line_pong(Shared& s) {
  return s.pong.v;
}
constexpr Handoff kOneLine{&one_line_ping, &one_line_pong};
constexpr Handoff kTwoLines{&own_line_ping, &own_line_pong};
constexpr Handoff kTwoLinesFence{&own_line_ping, &own_line_pong, Publish::fence};
constexpr Handoff kTwoLinesExchange{&own_line_ping, &own_line_pong, Publish::exchange};

// Starts the child answering `rounds` pings (0: until stopped).
bool start_answering(PingPong& pp, Handoff w, std::uint32_t rounds) {
  w.ping(pp.s()).store(0);
  w.pong(pp.s()).store(0);
  return pp.start([w, rounds](Shared& sh, auto give_up) {
    for (std::uint32_t i = 1; rounds == 0 || i <= rounds; ++i) {
      if (!wait_until([&] { return w.ping(sh).load(std::memory_order_acquire) == i; }, give_up))
        return;
      publish(w.pong(sh), i, w.how);
    }
  });
}

bool round_trip(PingPong& pp, Handoff w, std::uint32_t i) {
  Shared& s = pp.s();
  publish(w.ping(s), i, w.how);
  return pp.wait([&] { return w.pong(s).load(std::memory_order_acquire) == i; });
}

// The floor: `rounds` one-line round trips; microseconds per round trip, 0 when it failed.
double floor_us(PingPong& pp, std::uint32_t rounds) {
  if (!start_answering(pp, kOneLine, rounds)) return 0;
  const auto t0 = Clock::now();
  for (std::uint32_t i = 1; i <= rounds; ++i)
    if (!round_trip(pp, kOneLine, i)) return 0;
  const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
  pp.stop();
  return us / rounds;
}

// The loop's own time per round trip over the floor's: the figure as a multiple of it.
void report_floor(benchmark::State& state, double floor, Clock::duration loop) {
  state.counters["floor_rt_us"] = floor;
  if (state.iterations() > 0)
    state.counters["x_floor"] = std::chrono::duration<double, std::micro>(loop).count() /
                                static_cast<double>(state.iterations()) / floor;
}

// Times `round_trip()` once per benchmark iteration, ends the child with `stop_child()`
// (by default the stop word its serving loop reads), and reports the loop against `floor`; a
// round trip that fails has already skipped the benchmark.
template <class RoundTrip, class StopChild>
void time_round_trips(benchmark::State& state, double floor, RoundTrip round_trip,
                      StopChild stop_child) {
  bool ok = true;
  const auto loop_start = Clock::now();
  for (auto _ : state) {
    if (!round_trip()) {
      ok = false;
      break;
    }
  }
  const auto loop = Clock::now() - loop_start;
  stop_child();
  if (ok) report_floor(state, floor, loop);
}
template <class RoundTrip>
void time_round_trips(benchmark::State& state, PingPong& pp, double floor, RoundTrip round_trip) {
  time_round_trips(state, floor, round_trip, [&pp] { pp.stop(); });
}

void BM_PingPongHandoff(benchmark::State& state, Handoff w) {
  PingPong pp(state);
  if (!pp.ok()) return;
  const double floor = floor_us(pp, kFloorRounds);
  if (floor <= 0 || !start_answering(pp, w, 0)) return;
  std::uint32_t i = 0;
  time_round_trips(state, pp, floor, [&] { return round_trip(pp, w, ++i); });
}
BENCHMARK_CAPTURE(BM_PingPongHandoff, one_line, kOneLine)->UseRealTime();
BENCHMARK_CAPTURE(BM_PingPongHandoff, two_lines, kTwoLines)->UseRealTime();
BENCHMARK_CAPTURE(BM_PingPongHandoff, two_lines_fence, kTwoLinesFence)->UseRealTime();
BENCHMARK_CAPTURE(BM_PingPongHandoff, two_lines_exchange, kTwoLinesExchange)->UseRealTime();

// An 8-byte packet each way through the two processes' receive queues; the reply is written
// while the request is handled, before its cells are cleared, as the engine does.
void BM_PingPongQueue(benchmark::State& state) {
  PingPong pp(state);
  if (!pp.ok()) return;
  const double floor = floor_us(pp, kFloorRounds);
  if (floor <= 0) return;
  Shared& s = pp.s();
  const PacketHeader h = rma::progress::make_header(rma::PacketType::put);
  const std::byte payload[8]{};
  const bool started = pp.start([&h, &payload](Shared& sh, auto give_up) {
    rma::shm::QueueReader in(&sh.ctl[1], sh.data[1], kQueueBytes);
    rma::shm::QueueWriter out(&sh.ctl[0], sh.data[0], kQueueBytes, 1);
    const auto reply = [&](int, const PacketHeader&, std::span<const std::byte>) {
      wait_until([&] { return out.try_write(h, payload); }, give_up);
    };
    while (wait_until([&] { return in.has_data(); }, give_up)) in.read(reply, 1);
  });
  if (!started) return;
  rma::shm::QueueReader in(&s.ctl[0], s.data[0], kQueueBytes);
  rma::shm::QueueWriter out(&s.ctl[1], s.data[1], kQueueBytes, 0);
  const auto take = [](int, const PacketHeader&, std::span<const std::byte>) {};
  time_round_trips(state, pp, floor, [&] {
    return pp.wait([&] { return out.try_write(h, payload); }) &&
           pp.wait([&] { return in.read(take, 1) > 0; });
  });
}
BENCHMARK(BM_PingPongQueue)->UseRealTime();

// Work that touches no memory: `steps` dependent arithmetic steps from `seed` (the empty asm
// hides `x` from the compiler, so it cannot fold the loop).
[[gnu::noinline]] std::uint64_t busy(std::uint64_t seed, std::uint64_t steps) {
  std::uint64_t x = seed;
  for (std::uint64_t i = 0; i < steps; ++i) {
    x = x * 3 + 1;
    asm volatile("" : "+r"(x));
  }
  return x;
}

// Nanoseconds per call of busy(steps), timed in the parent before the pair starts (not
// pinned), the fastest of five timed runs so that one the scheduler interrupted does not
// count. Each call starts from the last one's result, so the core cannot overlap them: a
// call's latency, as in a round trip, where the answer waits for it. (On two virtual cores
// of one physical core the peer's spinning can slow the same call during the round trips.)
double busy_ns(std::uint64_t steps, std::uint64_t calls) {
  double best = 0;
  std::uint64_t x = 0;
  for (int run = 0; run < 5; ++run) {
    const auto t0 = Clock::now();
    for (std::uint64_t c = 0; c < calls; ++c) x = busy(x, steps);
    benchmark::DoNotOptimize(x);
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    const double per_call = ns / static_cast<double>(calls);
    if (run == 0 || per_call < best) best = per_call;
  }
  return best;
}

// 8-byte packets each way through the pair's mailbox slots. Rank 0 (the timed side, an
// origin) spends `origin_steps` of busy() between taking an answer and posting its next
// packet, rank 1 (a target) `target_steps` between taking a packet and answering it, as an
// engine spends its software.
void mailbox_round_trips(
    benchmark::State& state, std::uint64_t origin_steps, std::uint64_t target_steps,
    rma::shm::AnswerPrefetch::Mode prefetch = rma::shm::AnswerPrefetch::Mode::off) {
  PingPong pp(state);
  if (!pp.ok()) return;
  const double floor = floor_us(pp, kFloorRounds);
  if (floor <= 0) return;
  Shared& s = pp.s();
  for (auto& slot : s.slots) slot.word.store(0);
  const PacketHeader h = rma::progress::make_header(rma::PacketType::put);
  const std::byte payload[8]{};
  const bool started = pp.start([&h, &payload, target_steps, prefetch](Shared& sh, auto give_up) {
    rma::shm::Mailboxes box(sh.slots, 2, 1);
    box.set_prefetch(prefetch);
    const auto reply = [&](int, const PacketHeader&, std::span<const std::byte>) {
      if (target_steps) benchmark::DoNotOptimize(busy(target_steps, target_steps));
      wait_until([&] { return box.try_post(0, h, payload); }, give_up);
    };
    // In a ping-pong every acknowledgment rides on the next post (each side's post carries
    // its acknowledgment of the other's last one): nothing to flush, as in the transport.
    while (wait_until([&] { return box.has_data(); }, give_up)) box.take_all(reply, 1);
  });
  if (!started) return;
  rma::shm::Mailboxes box(s.slots, 2, 0);
  box.set_prefetch(prefetch);
  const auto take = [origin_steps](int, const PacketHeader&, std::span<const std::byte>) {
    if (origin_steps) benchmark::DoNotOptimize(busy(origin_steps, origin_steps));
  };
  time_round_trips(state, pp, floor, [&] {
    return pp.wait([&] { return box.try_post(1, h, payload); }) &&
           pp.wait([&] { return box.take_all(take, 1) > 0; });
  });
  if (prefetch != rma::shm::AnswerPrefetch::Mode::off && state.iterations() > 0)
    state.counters["early"] =
        static_cast<double>(box.prefetches()) / static_cast<double>(state.iterations());
}

// The same packets through the pair's mailbox slots (shm_mailbox.hpp), the path the shm
// transport takes for small packets in jobs of a few ranks; the bare slots, without the
// early request for the answer's line (BM_PingPongAnswerDelay/ns:0/prefetch:2 has it as the
// transport decides it).
void BM_PingPongMailbox(benchmark::State& state) {
  mailbox_round_trips(state, 0, 0);
}
BENCHMARK(BM_PingPongMailbox)->UseRealTime();

// busy()'s steps per nanosecond in this process, timed once per benchmark so that the stretches
// of one benchmark share a rate.
double busy_steps_per_ns() {
  constexpr std::uint64_t kCalibration = 1 << 22;
  return static_cast<double>(kCalibration) / busy_ns(kCalibration, 1);
}

// A stretch of busy() of about `ns` nanoseconds: its steps, and one call's time measured
// alone in this process (call included), both 0 for 0 ns.
struct Stretch {
  std::uint64_t steps = 0;
  double ns = 0;
};
Stretch stretch_of(double ns, double steps_per_ns) {
  if (ns <= 0) return {};
  const auto steps = static_cast<std::uint64_t>(ns * steps_per_ns + 0.5);
  return {steps, steps ? busy_ns(steps, 100000) : 0};
}

// The mailbox round trip with a stretch of work of about state.range(0) nanoseconds on each
// side between taking a packet and posting the next: how a transport's round trip grows
// with the time the software above it takes to answer, without any of that software's
// memory traffic. `answer_ns` is one stretch's time, call included, timed alone before the
// round trips. ns:0 runs no work, BM_PingPongMailbox's loop exactly. prefetch:1 turns on
// the slots' early request for the line of the answer's slot (Mailboxes::set_prefetch),
// prefetch:2 leaves it to the per-peer decision the transport runs with (AnswerPrefetch):
// where the request saves, where it costs, and whether the decision finds the cheaper.
// Counter `early`: the timed side's share of takes that made the request.
void BM_PingPongAnswerDelay(benchmark::State& state) {
  const auto ns = static_cast<double>(state.range(0));
  const Stretch work = stretch_of(ns, ns > 0 ? busy_steps_per_ns() : 0);
  static_assert(static_cast<int>(rma::shm::AnswerPrefetch::Mode::adaptive) == 2);
  mailbox_round_trips(state, work.steps, work.steps,
                      static_cast<rma::shm::AnswerPrefetch::Mode>(state.range(1)));
  state.counters["answer_ns"] = work.ns;
}
BENCHMARK(BM_PingPongAnswerDelay)
    ->ArgNames({"ns", "prefetch"})
    ->ArgsProduct({{0, 10, 20, 30, 40, 60, 80, 120}, {0, 1, 2}})
    ->UseRealTime();

// The same with the sides' answers apart, as in an am lock-put-unlock: the origin runs the
// next epoch's calls between the acknowledgment and its next packet, the target only applies
// the put before it acknowledges. `origin_answer_ns` and `target_answer_ns` are measured as
// `answer_ns` is, both in the parent (the target's stretch runs in the child).
void BM_PingPongUnevenAnswer(benchmark::State& state) {
  const double rate = busy_steps_per_ns();
  const Stretch origin = stretch_of(static_cast<double>(state.range(0)), rate);
  const Stretch target = stretch_of(static_cast<double>(state.range(1)), rate);
  mailbox_round_trips(state, origin.steps, target.steps);
  state.counters["origin_answer_ns"] = origin.ns;
  state.counters["target_answer_ns"] = target.ns;
}
BENCHMARK(BM_PingPongUnevenAnswer)
    ->ArgNames({"origin_ns", "target_ns"})
    ->Args({10, 0})
    ->Args({20, 0})
    ->Args({40, 0})
    ->Args({80, 0})
    ->Args({150, 0})
    ->Args({0, 10})
    ->Args({0, 20})
    ->Args({0, 40})
    ->Args({40, 10})
    ->Args({40, 20})
    ->Args({150, 40})
    ->Args({150, 70})
    ->UseRealTime();

// The whole shm transport (shm_transport.cpp: its poll over the slots and the queue, the
// doorbell a send reads), the rung between the two above and the engine's round trip below.
// The child answers each packet from inside its delivery.
class EchoSink final : public rma::progress::PacketSink {
 public:
  explicit EchoSink(rma::progress::Transport* reply_on) : reply_on_(reply_on) {}
  void deliver(int src, const PacketHeader& h, std::span<const std::byte> p) override {
    ++got;
    if (reply_on_)
      while (!reply_on_->try_send(src, h, p)) rma::progress::cpu_relax();
  }
  std::uint64_t got = 0;

 private:
  rma::progress::Transport* reply_on_;
};

using Transports = std::vector<std::unique_ptr<rma::progress::Transport>>;

// Both ranks' transports, made in this process; none, the benchmark skipped, on failure.
Transports both_transports(benchmark::State& state) {
  auto t = rma::testing::shm_transports(2, "rma_micro_bench." + std::to_string(::getpid()));
  if (!t) {
    state.SkipWithError(("shm transport: " + t.status().message()).c_str());
    return {};
  }
  return std::move(t.value());
}

// The floor, then both ranks' transports, made in this process before the fork (the child
// keeps rank 1's, over the same shared segment); false, the benchmark skipped, on failure.
bool floor_and_transports(benchmark::State& state, PingPong& pp, double& floor, Transports& out) {
  floor = floor_us(pp, kFloorRounds);
  if (floor <= 0) return false;
  out = both_transports(state);
  return !out.empty();
}

void BM_PingPongTransport(benchmark::State& state) {
  PingPong pp(state);
  double floor = 0;
  Transports t;
  if (!pp.ok() || !floor_and_transports(state, pp, floor, t)) return;
  const PacketHeader h = rma::progress::make_header(rma::PacketType::put);
  const std::byte payload[8]{};
  rma::progress::Transport* server = t[1].get();
  const bool started = pp.start([server](Shared&, auto give_up) {
    EchoSink echo(server);
    while (wait_until([&] { return server->poll(echo, 64) > 0; }, give_up)) {
    }
  });
  if (!started) return;
  EchoSink take(nullptr);
  rma::progress::Transport& me = *t[0];
  time_round_trips(state, pp, floor, [&] {
    return pp.wait([&] { return me.try_send(1, h, payload); }) &&
           pp.wait([&] { return me.poll(take, 64) > 0; });
  });
}
BENCHMARK(BM_PingPongTransport)->UseRealTime();

// The engine's own point-to-point round trip over the same transports, no harness: an
// 8-byte send answered by an 8-byte send, each received by a blocking recv, progress by
// calls (no agent thread). The rung between the whole transport above and `rmabench
// bench`'s send/recv, which adds the replay loop and the runtime around the engine.
struct EngineRank {
  explicit EngineRank(std::unique_ptr<rma::progress::Transport> t)
      : engine(std::move(t), rma::ProgressMode::calls, calls),
        bulk(&engine),
        p2p(engine, bulk, 64) {}
  rma::progress::CallTracker calls;
  rma::progress::Engine engine;
  rma::progress::BulkRegistry bulk;
  rma::progress::P2p p2p;
};

void BM_PingPongEngine(benchmark::State& state) {
  PingPong pp(state);
  double floor = 0;
  Transports t;
  if (!pp.ok() || !floor_and_transports(state, pp, floor, t)) return;
  constexpr int kTag = 1;
  // The child answers until a message says stop (its first byte 1), or its recv fails: the
  // engine's wait ends on a peer that has exited.
  const bool started = pp.start([&t](Shared&, auto) {
    EngineRank me(std::move(t[1]));
    rma::progress::EngineLock lk(me.engine.mutex());
    std::byte buf[8]{};
    std::size_t n = 0;
    while (me.p2p.recv(lk, 0, buf, sizeof buf, kTag, &n) && buf[0] == std::byte{0})
      if (!me.p2p.send(lk, 0, buf, sizeof buf, kTag)) return;
  });
  if (!started) return;
  // The engine's wait cannot tell that the child died (both ranks' transports were made in
  // this process, so they name its pid): a watcher ends the benchmark instead of a hang.
  std::atomic<bool> done{false};
  std::thread watcher([&done, child = pp.child()] {
    siginfo_t info{};
    ::waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOWAIT);
    if (!done.load()) {
      std::fprintf(stderr, "BM_PingPongEngine: the child process exited (status %d)\n",
                   info.si_status);
      std::_Exit(1);
    }
  });
  EngineRank me(std::move(t[0]));
  rma::progress::EngineLock lk(me.engine.mutex());
  std::byte buf[8]{};
  std::size_t n = 0;
  const auto round_trip = [&] {
    if (me.p2p.send(lk, 1, buf, sizeof buf, kTag) && me.p2p.recv(lk, 1, buf, sizeof buf, kTag, &n))
      return true;
    state.SkipWithError("the engine's send or recv failed");
    return false;
  };
  // The child waits inside a recv and never reads the stop word: a last message stops it.
  const auto stop_child = [&] {
    done.store(true);
    buf[0] = std::byte{1};
    if (state.error_occurred() || !me.p2p.send(lk, 1, buf, sizeof buf, kTag)) pp.kill_child();
    watcher.join();
    pp.stop();
  };
  time_round_trips(state, floor, round_trip, stop_child);
}
BENCHMARK(BM_PingPongEngine)->UseRealTime();

// The rungs above with both ranks in this thread, one after the other: rank 0 sends, rank 1
// takes the packet and answers, rank 0 takes the answer. No line moves between cores and no
// wait idles, so each figure is a lower bound of the rung's software per round trip, not a
// part that can be subtracted from its figure above (a warm cache, and on two cores of one
// physical core the other core's work slows this one's).
// The slots here decide the early request as the transport does (AnswerPrefetch's default).
void BM_LoopbackMailbox(benchmark::State& state) {
  std::vector<rma::shm::MailboxSlot> slots(4);
  rma::shm::Mailboxes a(slots.data(), 2, 0), b(slots.data(), 2, 1);
  const PacketHeader h = rma::progress::make_header(rma::PacketType::put);
  const std::byte payload[8]{};
  bool answered = false;
  const auto answer = [&](int, const PacketHeader&, std::span<const std::byte>) {
    answered = b.try_post(0, h, payload);
  };
  const auto take = [](int, const PacketHeader&, std::span<const std::byte>) {};
  for (auto _ : state) {
    answered = false;
    if (!a.try_post(1, h, payload) || b.take_all(answer, 1) != 1 || !answered ||
        a.take_all(take, 1) != 1) {
      state.SkipWithError("a packet did not arrive at once");
      break;
    }
  }
}
BENCHMARK(BM_LoopbackMailbox);

// Answers a packet with one try: no other thread could make room for a second.
class AnswerOnce final : public rma::progress::PacketSink {
 public:
  explicit AnswerOnce(rma::progress::Transport& t) : t_(t) {}
  void deliver(int src, const PacketHeader& h, std::span<const std::byte> p) override {
    answered = t_.try_send(src, h, p);
  }
  bool answered = false;

 private:
  rma::progress::Transport& t_;
};

void BM_LoopbackTransport(benchmark::State& state) {
  Transports t = both_transports(state);
  if (t.empty()) return;
  const PacketHeader h = rma::progress::make_header(rma::PacketType::put);
  const std::byte payload[8]{};
  AnswerOnce echo(*t[1]);
  EchoSink take(nullptr);
  for (auto _ : state) {
    echo.answered = false;
    if (!t[0]->try_send(1, h, payload) || t[1]->poll(echo, 64) != 1 || !echo.answered ||
        t[0]->poll(take, 64) != 1) {
      state.SkipWithError("a packet did not arrive at once");
      break;
    }
  }
}
BENCHMARK(BM_LoopbackTransport);

// Each send is eager (it completes once its packet is out) and each recv finds its message
// in its first poll. A recv whose message is not there would wait for ever (its peer is this
// thread): each recv first asks its transport, and a missing message skips the benchmark.
void BM_LoopbackEngine(benchmark::State& state) {
  Transports t = both_transports(state);
  if (t.empty()) return;
  EngineRank r0(std::move(t[0])), r1(std::move(t[1]));
  const auto arrived = [](EngineRank& r) { return r.engine.transport().has_incoming(); };
  rma::progress::EngineLock l0(r0.engine.mutex()), l1(r1.engine.mutex());
  constexpr int kTag = 1;
  std::byte buf[8]{};
  std::size_t n = 0;
  for (auto _ : state) {
    if (!r0.p2p.send(l0, 1, buf, sizeof buf, kTag) || !arrived(r1) ||
        !r1.p2p.recv(l1, 0, buf, sizeof buf, kTag, &n) ||
        !r1.p2p.send(l1, 0, buf, sizeof buf, kTag) || !arrived(r0) ||
        !r0.p2p.recv(l0, 1, buf, sizeof buf, kTag, &n)) {
      state.SkipWithError("the engine's send or recv failed");
      break;
    }
  }
}
BENCHMARK(BM_LoopbackEngine);

}  // namespace
