// reports/rank_state_text.hpp — one entry of CaseResult::rank_states as plain text.
//
// The harness records, on a deadlock, timeout or crash, what each rank was doing: the call
// it is blocked in and since when, what it waits for, and per window the epochs, per-target
// queues and lock holders. The shape is free-form JSON; this renders whatever fields are
// there (unknown scalar fields as key=value) and requires none, so every writer shows a
// stuck rank the same way.
//
//   for (const auto& s : c.rank_states) {
//     RankStateText t = describe_rank_state(s);
//     out << t.headline << '\n';                    // "rank 0: blocked in recv since 3.200s, ..."
//     for (const auto& w : t.windows) out << "  " << w << '\n';
//   }
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace reports {

struct RankStateText {
  std::string headline;              // "rank 1: no reply", "rank 0: blocked in fence ..."
  std::vector<std::string> windows;  // one line per window the rank has
  std::string counters;              // "counters: name=n, ..." (non-zero only); "" if absent
};

RankStateText describe_rank_state(const nlohmann::json& state);

}  // namespace reports
