// reports/sequence_svg.hpp — a trace (reports/trace.hpp) drawn as a sequence diagram: one
// vertical lane per rank, each call a box on its rank's lane, each packet an arrow from the
// sender's lane at the time it left to the receiver's at the time it was handled, labelled
// with its type and flags. A packet that arrived but was not handled (sync_only kept it)
// is dashed and ends at its arrival; one that never arrived ends half-way, marked "?".
//
// Time runs down and is ordinal, not linear: every distinct moment gets its own row, so a
// 10 us wait and a 10 ms wait take the same room and nothing overlaps. With `rank_states`
// (a report's `rank_states`, on a deadlock or timeout), each lane ends with the call the rank
// is blocked in and what it waits for.
//
// Packet arrows (<g class="packet">) are drawn in sequence_arrow_color, used nowhere else on
// the page, so that a screenshot shows whether they drew (reports/testing/).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "reports/trace.hpp"

namespace reports {

inline constexpr std::string_view sequence_arrow_color = "#b8336a";

// A self-contained <svg class="sequence"> element (its styles inline: it is also a file of
// its own in docs/).
std::string sequence_svg(const Trace& t, const nlohmann::json& rank_states = nullptr,
                         const std::string& title = "");

}  // namespace reports
