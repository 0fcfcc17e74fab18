// reports/text_format.hpp — small text helpers shared by the human-readable writers, so the
// console, Markdown and HTML views say the same thing the same way.
//
//   verdict_word(c)            "PASS", "FAIL", "DEADLOCK", ...
//   summary_line(r.summary)    "10 passed, 1 failed, 2 skipped"
//   format_seconds(1.25)       "1.250s"
//   json_text(v)               a free-form JSON value (rank states, topology) as plain text:
//                              strings unquoted, scalar lists comma-joined, the rest as JSON
//   printable(s)               text from a script or a rank made safe to show anywhere
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "reports/model.hpp"

namespace reports {

// PASS for any passed case (a must-deadlock case that deadlocked included), FAIL for a
// must-deadlock case that ran to completion, else the status in capitals.
std::string verdict_word(const CaseResult& c);

// "N passed, N failed", with ", N skipped" only when some were skipped.
std::string summary_line(const Summary& s);

std::string format_seconds(double seconds);
std::string json_text(const nlohmann::json& value);

// Keeps text whatever bytes a rank sent: valid UTF-8 passes through, a byte that is not
// part of valid UTF-8 (and U+FFFE, U+FFFF) becomes U+FFFD, and a control character other
// than tab and line feed becomes a visible "\xNN" (no terminal escapes, no bytes XML 1.0
// forbids).
std::string printable(std::string_view s);

// A `--check races` access: "rank 1 put at f.lua:12, rank 0's window 0 bytes [0, 8), fence
// epoch 1"; and a finding's headline: "conflict: f.lua:12 and f.lua:20".
std::string race_access_text(const RaceAccess& a);
std::string race_headline(const Race& r);

}  // namespace reports
