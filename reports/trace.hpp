// reports/trace.hpp — one case's timeline under `--trace`: the calls every rank made and the
// packets between them, each packet paired from its sender's and its receiver's records.
//
// The ranks send their rings (harness/worker/trace_record.hpp); merge_rank_traces() pairs a
// packet's "sent" record on its source with the "handled" (or "arrived": kept, not yet
// handled) record on its destination by their number on that (source, destination) pair.
// Times are nanoseconds from the case's first event, on the host's monotonic clock. The
// harness's own barriers are left out: they are not the pattern's.
//
// A CaseResult keeps the trace in its JSON form (`cases[].trace`, to_json below), so a run
// directory's records rebuild every view of it (`rmabench report DIR`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace reports {

struct TraceCall {
  int rank = 0;
  std::string name;  // put, lock, recv, ... (call/call.hpp)
  int target = -1;   // -1: the call has none
  std::uint64_t bytes = 0;
  std::int64_t start_ns = 0, end_ns = 0;

  bool operator==(const TraceCall&) const = default;
};

struct TracePacket {
  std::string type;                // rma::PacketType name: put, ack, cts, data, p2p_eager
  std::vector<std::string> flags;  // lock_exclusive, unlock, ack_req, done, fence_last, rndv
  int src = 0, dst = 0;
  std::uint64_t bytes = 0;                 // payload bytes
  std::optional<std::int64_t> sent_ns;     // null: the sender's record was dropped
  std::optional<std::int64_t> arrived_ns;  // null: never arrived (or its record dropped)
  std::optional<std::int64_t> handled_ns;  // null: not handled (sync_only kept it)

  bool operator==(const TracePacket&) const = default;
};

struct Trace {
  int ranks = 0;
  std::vector<TraceCall> calls;        // by start time
  std::vector<TracePacket> packets;    // by the time they were sent (else arrived)
  std::vector<std::uint64_t> dropped;  // per rank: events its ring overwrote
  std::vector<int> missing;            // ranks that sent no trace (crashed, no reply)

  bool operator==(const Trace&) const = default;
};

// The ranks' ring records (one JSON per rank, null where a rank sent none) as one trace.
Trace merge_rank_traces(const std::vector<nlohmann::json>& per_rank);

nlohmann::json to_json(const Trace& t);
// Throws std::runtime_error naming the field that is wrong under `path`.
Trace trace_from_json(const nlohmann::json& j, const std::string& path = "trace");

// "put [lock_exclusive, unlock, ack_req]": a packet's label in diagrams and text.
std::string packet_label(const TracePacket& p);

// The text form: one line per packet (and with `calls`, one per call), in time order:
//   "     0.0 us  rank 0 -> rank 1  put [lock_exclusive, ack_req] 8 B, handled at 14.2 us"
std::vector<std::string> trace_lines(const Trace& t, bool calls);

// Diagrams are drawn for traces up to this many packets (more does not read).
inline constexpr std::size_t max_diagram_packets = 300;

}  // namespace reports
