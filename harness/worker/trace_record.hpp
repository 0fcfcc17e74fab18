// trace_record.hpp — this rank's --trace ring (rma/trace.hpp) as the JSON a rank sends the
// parent, with its result or, when it is stuck, with its state: the parent pairs the ranks'
// packet records into one timeline (reports/trace.hpp).
//
//   {"rank": 0, "dropped": 0, "events": [
//     {"k": "call", "name": "put", "target": 1, "bytes": 8, "t0": ns, "t1": ns},
//     {"k": "sent", "type": "put", "flags": ["lock_exclusive"], "peer": 1, "seq": 7,
//      "bytes": 8, "t0": ns},
//     {"k": "handled", "type": "ack", "flags": [], "peer": 1, "seq": 5, "bytes": 0,
//      "t0": arrived_ns, "t1": handled_ns},
//     {"k": "arrived", ...}]}   // arrived, kept for a later synchronization call
#pragma once

#include <nlohmann/json.hpp>

namespace harness::worker {

nlohmann::json trace_json(int rank);

}  // namespace harness::worker
