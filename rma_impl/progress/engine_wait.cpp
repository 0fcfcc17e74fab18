// How a thread waits for a condition (Engine::wait_until): WaitLoop's spin, yield and sleep
// phases, the liveness checks that end a wait on a dead peer (Engine::wait_failure), and the
// backoff's tuning from the environment and the node's load (WaitTuning::from_env).
#include "progress/engine.hpp"

#include <sched.h>

#include <cstdlib>
#include <thread>

#include "progress/cpu_relax.hpp"

namespace rma::progress {
namespace {

using Clock = std::chrono::steady_clock;
// How long a thread with packets waiting for room at a receiver naps between attempts (the
// agent in engine.cpp naps as long): a receiver that frees room rings nobody.
constexpr auto kRoomNap = std::chrono::microseconds(50);

std::chrono::microseconds env_us(const char* name, std::chrono::microseconds dflt) {
  const char* v = std::getenv(name);
  if (!v || !*v) return dflt;
  char* end = nullptr;
  long n = std::strtol(v, &end, 10);
  if (*end != '\0' || n < 0) return dflt;
  return std::chrono::microseconds(n);
}

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return std::max(1, CPU_COUNT(&set));
}

}  // namespace

WaitTuning WaitTuning::from_env(int ranks) {
  WaitTuning t;
  const int cpus = usable_cpus();
  if (ranks > cpus) {
    // Every timed wake-up of every rank takes a core from the ranks with work: wake up less
    // the more ranks share a core (measured with perf at 1024 ranks on 2 cores: the parked
    // agents' wake-ups were most of the machine's time).
    const long share = ranks / cpus;  // >= 1
    t.spin = std::chrono::microseconds(2);
    t.yield = std::chrono::microseconds(20);
    t.park_check =
        std::min(std::chrono::microseconds(100 * share), std::chrono::microseconds(50000));
    t.sleep_slice = std::min(std::chrono::microseconds(20000 * (1 + share / 32)),
                             std::chrono::microseconds(200000));
  }
  t.spin = env_us("RMA_SPIN_US", t.spin);
  t.yield = env_us("RMA_YIELD_US", t.yield);
  t.agent_spin = env_us("RMA_AGENT_SPIN_US", t.agent_spin);
  return t;
}

Status Engine::wait_failure(const WaitInfo& why) const {
  if (why.peer >= 0) return transport_->peer_status(why.peer);
  if (why.peer == -2) {
    // A few peers per check, in turn: asking all of 1024 ranks every check would cost each
    // waiting rank a thousand system calls; a dead peer is still found within n/16 checks.
    constexpr int kPerCheck = 16;
    for (int i = 0; i < std::min(kPerCheck, size_); ++i) {
      const int p = liveness_cursor_;
      liveness_cursor_ = (liveness_cursor_ + 1) % size_;
      if (p == rank_) continue;
      Status s = transport_->peer_status(p);
      if (!s) return s;
    }
  }
  return Status::ok();
}

// ---------------------------------------------------------------------------------------

WaitLoop::WaitLoop(Engine& e, EngineLock& lk, const WaitInfo& why) : e_(e), lk_(lk), why_(why) {
  e_.app_polling_.store(true, std::memory_order_relaxed);
  e_.app_waiting_.store(true, std::memory_order_relaxed);
}

WaitLoop::~WaitLoop() {
  e_.app_polling_.store(false, std::memory_order_relaxed);
  e_.app_waits_.store(e_.app_waits_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  // Release, not seq_cst: nothing waits on this store with a handshake (the agent only
  // reads the flag to decide whether to park, or stay parked, for one more check), and a
  // seq_cst store is a locked instruction on the path from the reply to the next request.
  e_.app_waiting_.store(false, std::memory_order_release);
  if (awake_) e_.transport_->awake_leave();
  if (marked_blocked_) e_.calls_.clear_blocked();
}

// Counting as awake spares senders a ring while one of this rank's threads sleeps on the
// doorbell; it costs two locked instructions on the doorbell's count per wait. A wait that
// ends within a round trip (a recv whose reply is on its way, an epoch's ack) does without:
// while the application thread waits, the agent parks rather than sleep on the doorbell
// (Agent::run), so a sender rings at most the one sleeper it finds, once. Registering only
// when the wait lasts took two of the six locked instructions off each side of a send/recv
// round trip (docs/performance-history.md).
void WaitLoop::be_awake() {
  if (awake_) return;
  e_.transport_->awake_enter();
  awake_ = true;
}

WaitLoop::Next WaitLoop::step() {
  if (e_.progress(why_.ctx)) {
    idle_steps_ = 0;
    return Next::again;
  }
  // The first idle steps only poll: no clock read, no system call. The clock starts once the
  // wait looks like it will last. The very first ones, about a round trip's worth, do not
  // even pause: a pause here is tens of nanoseconds on this kind of machine, and a reply
  // that lands during one waits for it to end (measured, shm am, fast placement, medians:
  // the send/recv round trip 0.235 -> 0.222 us, lock-put-unlock 0.337 -> 0.309 us; no
  // change at the slow placement; docs/performance-history.md).
  if (++idle_steps_ < kPollOnlySteps) {
    if (idle_steps_ == kStepsWithoutPause) be_awake();
    if ((idle_steps_ & 15) == 0) {
      lk_.unlock();  // let the agent and state dumps in now and then
      cpu_relax();
      lk_.lock();
    } else if (idle_steps_ > kStepsWithoutPause) {
      cpu_relax();
    }
    return Next::again;
  }
  const auto now = Clock::now();
  if (idle_steps_ == kPollOnlySteps) {
    idle_since_ = now;
    silent_seen_ = e_.transport_->silent_traffic();
    // A wait that lasts is worth reporting (state dumps); a short one is not worth a lock.
    if (!marked_blocked_) {
      e_.calls_.set_blocked(why_.text());
      marked_blocked_ = true;
      last_check_ = now;
    }
  }
  if (now - last_check_ > std::chrono::milliseconds(50)) {
    last_check_ = now;
    status_ = e_.wait_failure(why_);
    if (!status_) return Next::fail;
  }
  const auto idle = now - idle_since_;
  if (idle < e_.tuning_.spin) {
    lk_.unlock();
    cpu_relax();
    lk_.lock();
    return Next::again;
  }
  // Yield for longer than the transport's nap, if it naps (Transport::nap).
  if (idle < e_.tuning_.spin + std::max(e_.tuning_.yield, 2 * e_.transport_->nap())) {
    lk_.unlock();
    sched_yield();
    lk_.lock();
    return Next::again;
  }
  // Accesses the transport answered without a packet are traffic too: a target of a stream
  // of remote writes that slept between them would pay a wake-up for each (udp;ofi_rxd put
  // + flush, docs/protocol.md "Progress").
  if (const std::uint64_t silent = e_.transport_->silent_traffic(); silent != silent_seen_) {
    silent_seen_ = silent;
    idle_since_ = now;
    quiet_slice_ = std::max(kFirstQuietSlice, e_.tuning_.sleep_slice / 20);
    return Next::again;
  }
  if (e_.waits_for_room()) {
    // Packets wait for room at a receiver, and a receiver that frees room rings nobody: nap
    // briefly instead of blocking until a packet or the sleep slice comes.
    lk_.unlock();
    std::this_thread::sleep_for(kRoomNap);
    lk_.lock();
    return Next::again;
  }
  return Next::sleep;
}

// Stop counting as awake so that senders ring, then register as a sleeper.
std::uint64_t WaitLoop::prepare_sleep() {
  Transport& t = *e_.transport_;
  // Asleep, this thread polls nothing: the agent must linger for it.
  e_.app_polling_.store(false, std::memory_order_relaxed);
  if (awake_) t.awake_leave();
  awake_ = false;
  return t.sleep_prepare();
}

void WaitLoop::sleep(std::uint64_t token) {
  Transport& t = *e_.transport_;
  const auto slice = e_.tuning_.sleep_slice;
  lk_.unlock();
  t.sleep(token, quiet_slice_.count() ? std::min(quiet_slice_, slice) : slice);
  lk_.lock();
  // Doubled after each sleep; past the whole slice, back to zero (the whole slice). A
  // reading of silent traffic at the next step shortens it again.
  if (quiet_slice_.count()) quiet_slice_ = quiet_slice_ < slice ? 2 * quiet_slice_ : slice.zero();
  be_awake();
  e_.app_polling_.store(true, std::memory_order_relaxed);
  // Poll once more; if that finds work (packets, or silent traffic during the sleep), step()
  // polls eagerly again, else the wait goes back to sleep at once: a sleep slice that merely
  // timed out must not restart the spin and yield phases (with a thousand ranks on two cores
  // those phases are all the cores do).
  idle_steps_ = kPollOnlySteps;
}

void WaitLoop::cancel_sleep() {
  Transport& t = *e_.transport_;
  t.sleep_cancel();
  be_awake();
  e_.app_polling_.store(true, std::memory_order_relaxed);
  idle_steps_ = 0;
}

}  // namespace rma::progress
