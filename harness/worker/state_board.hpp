// state_board.hpp — what the control thread of a rank reads to answer the parent's "state?"
// while the main thread is busy or blocked: the case phase, the script position of the call
// in progress, and the runtime's own snapshot (call, windows, counters).
#pragma once

#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "lua/rank_context.hpp"
#include "rma/runtime.hpp"

namespace harness::worker {

class StateBoard {
 public:
  void set_phase(std::string phase) {
    std::lock_guard g(mu_);
    phase_ = std::move(phase);
  }
  void attach(rma::Runtime* rt, lua::RankContext* ctx) {
    std::lock_guard g(mu_);
    rt_ = rt;
    ctx_ = ctx;
  }
  void detach() { attach(nullptr, nullptr); }
  nlohmann::json snapshot(int rank) const;

 private:
  mutable std::mutex mu_;
  std::string phase_ = "starting";
  rma::Runtime* rt_ = nullptr;
  lua::RankContext* ctx_ = nullptr;
};

nlohmann::json counters_json(const rma::Counters& c);

}  // namespace harness::worker
