// mpi_call_slot.hpp — which MPI call the rank's main thread is in, for the state dumps a
// deadline asks for (mpi_impl.cpp enters and leaves it around every MPI call; the
// control thread reads snapshot()). No <mpi.h> here: it is tested without an MPI.
//
// A benchmark replays calls through the slot, so entering and leaving are relaxed stores, as
// the reference's progress::CallTracker's: no lock and no clock read per call. (A mutex pair
// and a vDSO clock_gettime per call, with the same for the epoch bookkeeping, made Open MPI
// osc/sm's lock-put-unlock about 0.45 us slower replayed than in a plain C loop, eight times
// the calls themselves.) The library does not say whether a call waits, so how long the rank
// has been in one is what tells a blocked rank from a busy one; that age is taken by a
// watcher thread instead of the caller: every kWatchPeriod it reads the calls' sequence
// number and notes when it first saw it change, so an age is under-read by at most a period.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "rma/state.hpp"

namespace harness::mpi {

class CallSlot {
 public:
  static constexpr auto kWatchPeriod = std::chrono::milliseconds(20);

  CallSlot() : watcher_([this] { watch(); }) {}
  ~CallSlot() {
    {
      std::lock_guard g(watch_mu_);
      stop_ = true;
    }
    watch_cv_.notify_one();
    watcher_.join();
  }
  CallSlot(const CallSlot&) = delete;
  CallSlot& operator=(const CallSlot&) = delete;

  // `call` must be a string with static storage (the MPI function's name).
  void enter(const char* call, int window, int target) {
    window_.store(window, std::memory_order_relaxed);
    target_.store(target, std::memory_order_relaxed);
    seq_.store(seq_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    call_.store(call, std::memory_order_release);
  }
  void leave() { call_.store(nullptr, std::memory_order_release); }

  rma::CallState snapshot() const {
    rma::CallState s;
    const char* call = call_.load(std::memory_order_acquire);
    if (!call) return s;
    s.call = call;
    s.window = window_.load(std::memory_order_relaxed);
    s.target = target_.load(std::memory_order_relaxed);
    const std::uint64_t seq = seq_.load(std::memory_order_relaxed);
    {
      std::lock_guard g(watch_mu_);
      // A call the watcher has not seen yet began less than a period ago: age 0.
      if (seq == seen_seq_)
        s.since_s = std::chrono::duration<double>(Clock::now() - seen_at_).count();
    }
    // One the rank has been inside for a while is taken as blocked; a rank that is merely
    // busy cycles through short calls (many ranks contending for a lock on few cores) and is
    // not. What it waits for is not observable from outside the library: left empty.
    s.blocked = s.since_s >= rma::kStuckAfterS;
    return s;
  }

 private:
  using Clock = std::chrono::steady_clock;

  void watch() {
    std::unique_lock g(watch_mu_);
    while (!watch_cv_.wait_for(g, kWatchPeriod, [this] { return stop_; })) {
      const std::uint64_t seq = seq_.load(std::memory_order_relaxed);
      if (seq != seen_seq_) seen_seq_ = seq, seen_at_ = Clock::now();
    }
  }

  // Written by the main thread only.
  std::atomic<const char*> call_{nullptr};
  std::atomic<int> window_{-1};
  std::atomic<int> target_{-2};
  std::atomic<std::uint64_t> seq_{0};
  // The watcher's: the sequence number it last saw change, and when.
  mutable std::mutex watch_mu_;
  std::condition_variable watch_cv_;
  bool stop_ = false;
  std::uint64_t seen_seq_ = 0;
  Clock::time_point seen_at_ = Clock::now();
  std::thread watcher_;  // last: started once the fields it reads exist
};

// Enters the slot for a scope.
class Tracked {
 public:
  Tracked(CallSlot& slot, const char* call, int window, int target) : slot_(slot) {
    slot_.enter(call, window, target);
  }
  ~Tracked() { slot_.leave(); }
  Tracked(const Tracked&) = delete;
  Tracked& operator=(const Tracked&) = delete;

 private:
  CallSlot& slot_;
};

}  // namespace harness::mpi
