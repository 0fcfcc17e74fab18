// fabric_liveness.hpp — telling a peer on another host that stopped answering (a network
// partition, a hung node) from one that is merely quiet, kept free of libfabric so it can be
// tested alone. A peer on the same host needs none of this: its pid says whether it lives.
//
// Every message from the peer counts as a sign of life. While a wait needs the peer and
// nothing came for a probe interval, the transport sends it a probe, which the peer answers
// with a probe reply from its progress (its agent's, or a library call's that polls). The peer is
// gone when nothing came for the whole timeout *and* probes went unanswered for at least
// half of it: a peer we had no reason to talk to for minutes still gets time to reply.
// While a wait needs it, a peer cut off at time t is declared gone by t + timeout (plus the
// period at which waits check, 50 ms).
//
// The timeout comes from the environment, RMA_LIVENESS_S (seconds, fractions allowed; 0
// turns detection off, leaving the provider's own errors and the case deadline), default
// kDefaultTimeout. A peer that makes no progress for longer (progress mode `calls` or
// `sync-only` while it computes, or a rank stopped in a debugger) counts as gone.
//
//   Liveness l(std::chrono::milliseconds(3000), now);
//   l.heard(now);                                   // any message from the peer
//   switch (l.check(now)) { case Liveness::probe: send_probe(); ... case Liveness::gone: ... }
#pragma once

#include <algorithm>
#include <chrono>
#include <string>

#include "rma/status.hpp"

namespace rma::fabric {

class Liveness {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kDefaultTimeout{10000};
  enum Verdict { alive, probe, gone };

  explicit Liveness(std::chrono::milliseconds timeout = kDefaultTimeout,
                    Clock::time_point now = Clock::now())
      : timeout_(timeout), last_heard_(now) {}

  bool enabled() const { return timeout_.count() > 0; }
  std::chrono::milliseconds timeout() const { return timeout_; }
  // Between probes: a quarter of the timeout within [100 ms, 1 s]; 1 s with detection off
  // (a probe still makes the provider try the connection and report its own errors).
  std::chrono::milliseconds interval() const {
    if (!enabled()) return std::chrono::milliseconds(1000);
    return std::clamp(timeout_ / 4, std::chrono::milliseconds(100),
                      std::chrono::milliseconds(1000));
  }

  void heard(Clock::time_point now) {
    last_heard_ = now;
    probing_ = false;
  }

  // A wait needs the peer now: probe it, leave it, or give it up.
  Verdict check(Clock::time_point now) {
    const auto quiet = now - last_heard_;
    if (quiet < interval()) return alive;
    if (!probing_) {
      probing_ = true;
      probing_since_ = last_probe_ = now;
      return probe;
    }
    if (enabled() && quiet >= timeout_ && now - probing_since_ >= timeout_ / 2) return gone;
    if (now - last_probe_ >= interval()) {
      last_probe_ = now;
      return probe;
    }
    return alive;
  }

  // Seconds since the peer was last heard from.
  double quiet_s(Clock::time_point now) const {
    return std::chrono::duration<double>(now - last_heard_).count();
  }

 private:
  std::chrono::milliseconds timeout_;
  Clock::time_point last_heard_;
  bool probing_ = false;
  Clock::time_point probing_since_{};
  Clock::time_point last_probe_{};
};

// RMA_LIVENESS_S from the environment (unset: the default); ARG naming the variable when it
// is not a number of seconds >= 0.
Result<std::chrono::milliseconds> liveness_timeout_from_env();

}  // namespace rma::fabric
