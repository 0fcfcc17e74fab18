#include "worker/trace_record.hpp"

#include <string>

#include "rma/counters.hpp"
#include "rma/trace.hpp"

namespace harness::worker {

nlohmann::json trace_json(int rank) {
  using rma::trace::EventKind;
  nlohmann::json events = nlohmann::json::array();
  for (const rma::trace::Event& e : rma::trace::snapshot()) {
    nlohmann::json j;
    if (e.kind == EventKind::call) {
      j = {{"k", "call"},      {"name", std::string(e.call)},
           {"target", e.peer}, {"bytes", e.bytes},
           {"t0", e.t0},       {"t1", e.t1}};
    } else {
      const char* k = e.kind == EventKind::sent      ? "sent"
                      : e.kind == EventKind::arrived ? "arrived"
                                                     : "handled";
      j = {{"k", k},
           {"type", std::string(rma::to_string(static_cast<rma::PacketType>(e.packet_type)))},
           {"flags", rma::trace::flag_names(e.flags)},
           {"peer", e.peer},
           {"seq", e.seq},
           {"bytes", e.bytes},
           {"t0", e.t0}};
      if (e.kind == EventKind::handled) j["t1"] = e.t1;
    }
    events.push_back(std::move(j));
  }
  return {{"rank", rank}, {"dropped", rma::trace::dropped()}, {"events", std::move(events)}};
}

}  // namespace harness::worker
