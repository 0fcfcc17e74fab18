// state_board.hpp — what the control thread of a rank reads to answer the parent's "state?"
// while the main thread is busy or blocked: the case phase, the script position of the call
// in progress, and the implementation's own snapshot (call, windows, and counters where it
// can observe them).
#pragma once

#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "impl/implementation.hpp"
#include "lua/rank_context.hpp"
#include "rma/counters.hpp"

namespace harness::worker {

class StateBoard {
 public:
  void set_phase(std::string phase) {
    std::lock_guard g(mu_);
    phase_ = std::move(phase);
  }
  void attach(impl::Implementation* impl, lua::RankContext* ctx) {
    std::lock_guard g(mu_);
    impl_ = impl;
    ctx_ = ctx;
  }
  void detach() { attach(nullptr, nullptr); }
  nlohmann::json snapshot(int rank) const;

 private:
  mutable std::mutex mu_;
  std::string phase_ = "starting";
  impl::Implementation* impl_ = nullptr;
  lua::RankContext* ctx_ = nullptr;
};

nlohmann::json counters_json(const rma::Counters& c);

}  // namespace harness::worker
