// clocks.hpp — the checker's reading of one log event (recorder.hpp's compact form), and
// happens-before over all ranks' events as vector clocks.
//
// Every event of rank r advances component r; a collective (barrier, fence, free of a window)
// gives each participant the join of all; a post is joined into its matching start (unless
// the start says nocheck), the completes of an access epoch into the matching wait, a send
// into its recv. e happens before f when f's clock has seen e.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "races/footprint.hpp"

namespace harness::races {

struct Event {
  std::string k;
  int w = -1, t = -1;
  std::uint64_t lo = 0, hi = 0;  // the bytes it covers
  Spans spans;                   // a layout's runs within [lo, hi) (empty: all of it)
  bool grid = true;              // footprint.hpp's Runs::grid
  char m = 0;
  std::string op, dt;
  unsigned a = 0;
  std::vector<int> g;
  bool x = false;
  int tag = 0;
  std::string at;
  bool ret = false;  // an atomic that returned its old value
  std::uint64_t old = 0, v = 0, cv = 0;
  std::string call, call_at, buf;  // early: the op whose buffer was touched
};

// The event's fields but its target range, which needs the target's disp_unit.
Event parse(const nlohmann::json& j);

class Clocks {
 public:
  explicit Clocks(const std::vector<std::vector<Event>>& ev);

  // A start and the post it matched (post_rank -1: none was recorded).
  struct Match {
    int start_rank;
    std::size_t start_idx;
    int target;
    int post_rank;
    std::size_t post_idx;
  };
  const std::vector<Match>& matches() const { return matches_; }

  // e = (rank, index) happens before f.
  bool before(int er, std::size_t ei, int fr, std::size_t fi) const {
    if (er == fr) return ei < fi;
    const auto eu = static_cast<std::size_t>(er);
    return vc_[static_cast<std::size_t>(fr)][fi][eu] >= vc_[eu][ei][eu];
  }

 private:
  using Clock = std::vector<std::uint32_t>;
  using Key = std::tuple<int, int, int>;  // (window or tag, from, to)
  // Takes rank r's next event; false if it waits for another rank (`force`: take it anyway).
  bool step(int r, bool force);
  bool collective_step(int r, bool force);
  void finish(int r);

  const std::vector<std::vector<Event>>& ev_;
  int n_;
  std::vector<std::vector<Clock>> vc_;
  std::vector<Match> matches_;
  // The simulation's state.
  std::vector<std::size_t> pos_;
  std::vector<Clock> cur_;
  std::vector<std::map<std::string, int>> coll_count_;
  std::map<std::pair<std::string, int>, std::vector<int>> arrived_;  // instance -> ranks
  std::vector<bool> waiting_;
  std::map<Key, std::vector<Clock>> posts_, completes_, sends_;
  std::map<Key, std::vector<std::pair<int, std::size_t>>> post_ids_;
  struct PendingMatch {
    int start_rank;
    std::size_t start_idx;
    int target;
    std::size_t nth;
  };
  std::vector<PendingMatch> start_matches_;
  std::map<Key, std::size_t> starts_seen_, waits_seen_, recvs_seen_;
  std::vector<std::map<int, std::vector<int>>> access_group_, exposure_group_;
};

}  // namespace harness::races
