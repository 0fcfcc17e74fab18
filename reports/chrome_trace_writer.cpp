#include "reports/chrome_trace_writer.hpp"

#include "reports/trace.hpp"

namespace reports {
namespace {

using nlohmann::json;

// A packet's slice on each end: short, so that the flow arrow has something to bind to.
constexpr double kPacketSliceUs = 0.1;

double us(std::int64_t ns) {
  return static_cast<double>(ns) / 1000.0;
}

json packet_args(const TracePacket& p) {
  const auto t = [](const std::optional<std::int64_t>& v) { return v ? json(us(*v)) : json(); };
  return {{"flags", p.flags},
          {"src", p.src},
          {"dst", p.dst},
          {"bytes", p.bytes},
          {"sent_us", t(p.sent_ns)},
          {"arrived_us", t(p.arrived_ns)},
          {"handled_us", t(p.handled_ns)}};
}

}  // namespace

bool has_traces(const Report& r) {
  for (const auto& c : r.cases)
    if (!c.trace.is_null()) return true;
  return false;
}

void write_chrome_trace(const Report& r, std::ostream& out) {
  json events = json::array();
  json cases = json::array();
  int place = 0;
  std::uint64_t flow_id = 0;
  for (const auto& c : r.cases) {
    if (c.trace.is_null()) continue;
    const Trace t = trace_from_json(c.trace);
    const int base = 1000 * place++;
    cases.push_back({{"id", c.id}, {"pid_base", base}, {"dropped", t.dropped}});
    for (int rank = 0; rank < t.ranks; ++rank) {
      const int pid = base + rank;
      events.push_back({{"name", "process_name"},
                        {"ph", "M"},
                        {"pid", pid},
                        {"tid", 0},
                        {"args", {{"name", "rank " + std::to_string(rank) + ": " + c.id}}}});
      events.push_back({{"name", "process_sort_index"},
                        {"ph", "M"},
                        {"pid", pid},
                        {"tid", 0},
                        {"args", {{"sort_index", pid}}}});
      events.push_back({{"name", "thread_name"},
                        {"ph", "M"},
                        {"pid", pid},
                        {"tid", 0},
                        {"args", {{"name", "calls"}}}});
      events.push_back({{"name", "thread_name"},
                        {"ph", "M"},
                        {"pid", pid},
                        {"tid", 1},
                        {"args", {{"name", "packets"}}}});
    }
    for (const auto& call : t.calls)
      events.push_back({{"name", call.name},
                        {"cat", "call"},
                        {"ph", "X"},
                        {"ts", us(call.start_ns)},
                        {"dur", us(call.end_ns - call.start_ns)},
                        {"pid", base + call.rank},
                        {"tid", 0},
                        {"args", {{"target", call.target}, {"bytes", call.bytes}}}});
    for (const auto& p : t.packets) {
      const json args = packet_args(p);
      const std::optional<std::int64_t> end = p.handled_ns ? p.handled_ns : p.arrived_ns;
      if (p.sent_ns)
        events.push_back({{"name", p.type},
                          {"cat", "packet"},
                          {"ph", "X"},
                          {"ts", us(*p.sent_ns)},
                          {"dur", kPacketSliceUs},
                          {"pid", base + p.src},
                          {"tid", 1},
                          {"args", args}});
      if (end)
        events.push_back({{"name", p.type},
                          {"cat", "packet"},
                          {"ph", "X"},
                          {"ts", us(*end)},
                          {"dur", kPacketSliceUs},
                          {"pid", base + p.dst},
                          {"tid", 1},
                          {"args", args}});
      if (p.sent_ns && end) {
        ++flow_id;
        events.push_back({{"name", p.type},
                          {"cat", "packet"},
                          {"ph", "s"},
                          {"id", flow_id},
                          {"ts", us(*p.sent_ns)},
                          {"pid", base + p.src},
                          {"tid", 1}});
        events.push_back({{"name", p.type},
                          {"cat", "packet"},
                          {"ph", "f"},
                          {"bp", "e"},
                          {"id", flow_id},
                          {"ts", us(*end)},
                          {"pid", base + p.dst},
                          {"tid", 1}});
      }
    }
  }
  const json doc = {{"traceEvents", std::move(events)},
                    {"displayTimeUnit", "ns"},
                    {"otherData",
                     {{"generator", "rmabench"},
                      {"rmabench_version", r.context.rmabench_version},
                      {"clock",
                       "CLOCK_MONOTONIC of the host, from each case's "
                       "first event"},
                      {"cases", std::move(cases)}}}};
  out << doc.dump(1, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace reports
