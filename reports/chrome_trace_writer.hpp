// reports/chrome_trace_writer.hpp — `trace.json`: every traced case of a report in the Chrome
// trace-event format (the JSON object form, read by Perfetto and chrome://tracing).
//
// One process per rank (pid = 1000 * the case's place among the traced cases + rank, so the
// first case's pids are its ranks), named "rank R: CASE ID". Thread 0 holds the calls, as
// complete ("X") events named after the call; thread 1 the packets: an "X" event named after
// the packet type on the sender when it left and on the receiver when it was handled (or
// arrived, if never handled), joined by a flow arrow ("s" then "f", category "packet", the
// same id). Times are microseconds from the case's first event.
#pragma once

#include <ostream>

#include "reports/model.hpp"

namespace reports {

// True when some case of the report carries a trace (then trace.json is written).
bool has_traces(const Report& r);
void write_chrome_trace(const Report& r, std::ostream& out);

}  // namespace reports
