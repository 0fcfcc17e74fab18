#include "reports/trace.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>

namespace reports {
namespace {

using nlohmann::json;

// The harness's barriers between phases (and a script's own, which the trace cannot tell
// apart) are not part of the pattern.
bool harness_traffic(const std::string& type) {
  return type == "barrier" || type == "collective";
}

std::optional<std::int64_t> opt_ns(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<std::int64_t>();
}

std::string us(std::int64_t ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f us", static_cast<double>(ns) / 1000.0);
  return b;
}

[[noreturn]] void bad(const std::string& path, const std::string& why) {
  throw std::runtime_error("report: field '" + path + "' " + why);
}

const json& field(const json& j, const char* key, const std::string& path) {
  auto it = j.find(key);
  if (it == j.end()) bad(path + "." + key, "is missing");
  return *it;
}

}  // namespace

Trace merge_rank_traces(const std::vector<json>& per_rank) {
  Trace t;
  t.ranks = static_cast<int>(per_rank.size());
  t.dropped.assign(per_rank.size(), 0);
  std::map<std::tuple<int, int, std::uint32_t>, TracePacket> packets;
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    const json& j = per_rank[r];
    const int rank = static_cast<int>(r);
    if (!j.is_object()) {
      t.missing.push_back(rank);
      continue;
    }
    t.dropped[r] = j.value("dropped", std::uint64_t{0});
    for (const json& e : j.value("events", json::array())) {
      const std::string k = e.value("k", "");
      if (k == "call") {
        t.calls.push_back({rank, e.value("name", ""), e.value("target", -1),
                           e.value("bytes", std::uint64_t{0}), e.value("t0", std::int64_t{0}),
                           e.value("t1", std::int64_t{0})});
        continue;
      }
      const std::string type = e.value("type", "");
      if (harness_traffic(type)) continue;
      const int peer = e.value("peer", -1);
      const auto seq = e.value("seq", std::uint32_t{0});
      const bool sent = k == "sent";
      TracePacket& p = packets[{sent ? rank : peer, sent ? peer : rank, seq}];
      // The sender's record says what left; the receiver's only fills in where it is missing.
      if (sent || !p.sent_ns) {
        p.type = type;
        p.flags = e.value("flags", std::vector<std::string>{});
        p.src = sent ? rank : peer;
        p.dst = sent ? peer : rank;
        p.bytes = e.value("bytes", std::uint64_t{0});
      }
      if (sent) p.sent_ns = e.value("t0", std::int64_t{0});
      if (k == "arrived" || k == "handled") p.arrived_ns = e.value("t0", std::int64_t{0});
      if (k == "handled") p.handled_ns = e.value("t1", std::int64_t{0});
    }
  }
  for (auto& [key, p] : packets) t.packets.push_back(std::move(p));

  // Times from the first event of the case.
  std::int64_t origin = std::numeric_limits<std::int64_t>::max();
  for (const auto& c : t.calls) origin = std::min(origin, c.start_ns);
  for (const auto& p : t.packets)
    for (const auto& v : {p.sent_ns, p.arrived_ns})
      if (v) origin = std::min(origin, *v);
  if (origin == std::numeric_limits<std::int64_t>::max()) origin = 0;
  for (auto& c : t.calls) c.start_ns -= origin, c.end_ns -= origin;
  for (auto& p : t.packets)
    for (auto* v : {&p.sent_ns, &p.arrived_ns, &p.handled_ns})
      if (*v) **v -= origin;

  std::stable_sort(t.calls.begin(), t.calls.end(),
                   [](const TraceCall& a, const TraceCall& b) { return a.start_ns < b.start_ns; });
  const auto when = [](const TracePacket& p) { return p.sent_ns ? *p.sent_ns : *p.arrived_ns; };
  std::stable_sort(t.packets.begin(), t.packets.end(),
                   [&](const TracePacket& a, const TracePacket& b) { return when(a) < when(b); });
  return t;
}

json to_json(const Trace& t) {
  json calls = json::array(), packets = json::array();
  for (const auto& c : t.calls)
    calls.push_back({{"rank", c.rank},
                     {"name", c.name},
                     {"target", c.target},
                     {"bytes", c.bytes},
                     {"start_ns", c.start_ns},
                     {"end_ns", c.end_ns}});
  const auto ns = [](const std::optional<std::int64_t>& v) { return v ? json(*v) : json(); };
  for (const auto& p : t.packets)
    packets.push_back({{"type", p.type},
                       {"flags", p.flags},
                       {"src", p.src},
                       {"dst", p.dst},
                       {"bytes", p.bytes},
                       {"sent_ns", ns(p.sent_ns)},
                       {"arrived_ns", ns(p.arrived_ns)},
                       {"handled_ns", ns(p.handled_ns)}});
  return {{"ranks", t.ranks},          {"clock", "monotonic ns from the case's first event"},
          {"dropped", t.dropped},      {"missing", t.missing},
          {"calls", std::move(calls)}, {"packets", std::move(packets)}};
}

Trace trace_from_json(const json& j, const std::string& path) {
  if (!j.is_object()) bad(path, "must be an object");
  Trace t;
  try {
    t.ranks = field(j, "ranks", path).get<int>();
    t.dropped = field(j, "dropped", path).get<std::vector<std::uint64_t>>();
    t.missing = j.value("missing", std::vector<int>{});
    for (const json& c : field(j, "calls", path))
      t.calls.push_back({c.at("rank").get<int>(), c.at("name").get<std::string>(),
                         c.at("target").get<int>(), c.at("bytes").get<std::uint64_t>(),
                         c.at("start_ns").get<std::int64_t>(), c.at("end_ns").get<std::int64_t>()});
    for (const json& p : field(j, "packets", path))
      t.packets.push_back({p.at("type").get<std::string>(),
                           p.at("flags").get<std::vector<std::string>>(), p.at("src").get<int>(),
                           p.at("dst").get<int>(), p.at("bytes").get<std::uint64_t>(),
                           opt_ns(p, "sent_ns"), opt_ns(p, "arrived_ns"), opt_ns(p, "handled_ns")});
  } catch (const json::exception& e) {
    bad(path, std::string("is malformed: ") + e.what());
  }
  return t;
}

std::string packet_label(const TracePacket& p) {
  std::string s = p.type;
  if (!p.flags.empty()) {
    s += " [";
    for (std::size_t i = 0; i < p.flags.size(); ++i) s += (i ? ", " : "") + p.flags[i];
    s += "]";
  }
  return s;
}

std::vector<std::string> trace_lines(const Trace& t, bool calls) {
  struct Line {
    std::int64_t at;
    std::string text;
  };
  std::vector<Line> lines;
  char head[64];
  for (const auto& p : t.packets) {
    const std::int64_t at = p.sent_ns ? *p.sent_ns : *p.arrived_ns;
    std::snprintf(head, sizeof head, "%10s  rank %d -> rank %d  ", us(at).c_str(), p.src, p.dst);
    std::string s = head + packet_label(p) + " " + std::to_string(p.bytes) + " B";
    if (!p.sent_ns) s += ", send not recorded (ring full)";
    if (p.handled_ns)
      s += ", handled at " + us(*p.handled_ns);
    else if (p.arrived_ns)
      s += ", arrived at " + us(*p.arrived_ns) + ", NOT HANDLED (kept for a sync call)";
    else
      s += ", NOT RECEIVED";
    lines.push_back({at, s});
  }
  if (calls) {
    for (const auto& c : t.calls) {
      std::snprintf(head, sizeof head, "%10s  rank %d  ", us(c.start_ns).c_str(), c.rank);
      std::string s = head + c.name + "(";
      if (c.target >= 0) s += std::to_string(c.target);
      if (c.bytes) s += std::string(c.target >= 0 ? ", " : "") + std::to_string(c.bytes) + " B";
      s += ") until " + us(c.end_ns);
      lines.push_back({c.start_ns, s});
    }
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const Line& a, const Line& b) { return a.at < b.at; });
  std::vector<std::string> out;
  for (auto& l : lines) out.push_back(std::move(l.text));
  for (std::size_t r = 0; r < t.dropped.size(); ++r)
    if (t.dropped[r])
      out.push_back("rank " + std::to_string(r) + ": " + std::to_string(t.dropped[r]) +
                    " earlier events dropped (ring full)");
  for (int r : t.missing) out.push_back("rank " + std::to_string(r) + ": no trace (it sent none)");
  return out;
}

}  // namespace reports
