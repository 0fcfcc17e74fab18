// clocks.hpp — the checker's event (a log event placed in its target's window), and
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

#include "races/footprint.hpp"
#include "races/race_event.hpp"

namespace harness::races {

// A log event as the checker reads it: a remote op's lo/hi are the bytes it covers in the
// target's window (its d, n or runs scaled by the target's disp_unit), as a load's or store's.
struct Event : RaceEvent {
  Spans spans;  // a layout's runs within [lo, hi) (empty: all of it)
  // Whether it accesses window memory: a remote op, a load or a store (not an early access,
  // which touches an op's buffer).
  bool accesses() const { return mode != AccessMode::none && kind != EventKind::early; }
};

// Each rank's log as the checker reads it: without the win events, which give the disp_unit
// a remote op to that rank's window is scaled by.
std::vector<std::vector<Event>> placed(const std::vector<std::vector<RaceEvent>>& logs);

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
  bool blocked(int r, const Event& e);
  void finish(int r);

  const std::vector<std::vector<Event>>& ev_;
  int n_;
  std::vector<std::vector<Clock>> vc_;
  std::vector<Match> matches_;
  // The simulation's state.
  std::vector<std::size_t> pos_;
  std::vector<Clock> cur_;
  std::vector<std::map<int, int>> coll_count_;               // (window or -1) -> instances
  std::map<std::pair<int, int>, std::vector<int>> arrived_;  // instance -> ranks
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
