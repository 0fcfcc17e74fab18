// The trace model: pairing the ranks' records, the JSON round trip, the Chrome trace-event
// file, the sequence diagram and the text form.
#include "reports/trace.hpp"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "reports/chrome_trace_writer.hpp"
#include "reports/html_writer.hpp"
#include "reports/markdown_writer.hpp"
#include "reports/sequence_svg.hpp"

namespace reports {
namespace {

using nlohmann::json;

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string::npos; p = s.find(what, p + what.size())) ++n;
  return n;
}

json sent(int peer, std::uint32_t seq, const char* type, json flags, std::int64_t t) {
  return {{"k", "sent"}, {"type", type}, {"flags", flags}, {"peer", peer},
          {"seq", seq},  {"bytes", 8},   {"t0", t}};
}
json handled(int peer, std::uint32_t seq, const char* type, std::int64_t at, std::int64_t t) {
  return {{"k", "handled"}, {"type", type}, {"flags", json::array()},
          {"peer", peer},   {"seq", seq},   {"bytes", 8},
          {"t0", at},       {"t1", t}};
}

// Rank 0 locks, puts (the lock and unlock ride on the put), rank 1 acks; a barrier packet of
// the harness on each side.
std::vector<json> lock_put_unlock() {
  json r0 = {{"rank", 0}, {"dropped", 0}, {"events", json::array()}};
  json r1 = {{"rank", 1}, {"dropped", 0}, {"events", json::array()}};
  r0["events"].push_back(
      {{"k", "call"}, {"name", "lock"}, {"target", 1}, {"bytes", 0}, {"t0", 1000}, {"t1", 1100}});
  r0["events"].push_back(sent(1, 5, "barrier", json::array(), 1050));
  r0["events"].push_back(
      {{"k", "call"}, {"name", "put"}, {"target", 1}, {"bytes", 8}, {"t0", 1200}, {"t1", 1300}});
  r0["events"].push_back(sent(1, 6, "put", {"lock_exclusive", "unlock", "ack_req"}, 1400));
  r1["events"].push_back(handled(0, 5, "barrier", 1060, 1070));
  r1["events"].push_back(handled(0, 6, "put", 1500, 1600));
  r1["events"].push_back(sent(0, 9, "ack", json::array(), 1700));
  r0["events"].push_back(handled(1, 9, "ack", 1800, 1900));
  r0["events"].push_back(
      {{"k", "call"}, {"name", "unlock"}, {"target", 1}, {"bytes", 0}, {"t0", 1350}, {"t1", 2000}});
  return {r0, r1};
}

TEST(Trace, PairsSendAndHandleByPairAndNumberAndLeavesBarriersOut) {
  const Trace t = merge_rank_traces(lock_put_unlock());
  ASSERT_EQ(t.packets.size(), 2u);
  EXPECT_EQ(t.packets[0].type, "put");
  EXPECT_EQ(t.packets[0].src, 0);
  EXPECT_EQ(t.packets[0].dst, 1);
  EXPECT_EQ(t.packets[0].flags, (std::vector<std::string>{"lock_exclusive", "unlock", "ack_req"}));
  EXPECT_EQ(t.packets[0].sent_ns, 400);  // from the first event, at 1000
  EXPECT_EQ(t.packets[0].arrived_ns, 500);
  EXPECT_EQ(t.packets[0].handled_ns, 600);
  EXPECT_EQ(t.packets[1].type, "ack");
  EXPECT_EQ(t.packets[1].src, 1);
  ASSERT_EQ(t.calls.size(), 3u);
  EXPECT_EQ(t.calls[0].name, "lock");
  EXPECT_EQ(t.calls[0].start_ns, 0);
  EXPECT_EQ(t.calls[2].name, "unlock");
}

TEST(Trace, KeptAndLostPacketsAndSilentRanksAreShownAsSuch) {
  json r0 = {
      {"rank", 0}, {"dropped", 3}, {"events", json::array({sent(1, 1, "put", {"rndv"}, 10)})}};
  json r1 = {{"rank", 1}, {"dropped", 0}, {"events", json::array()}};
  r1["events"].push_back({{"k", "arrived"},
                          {"type", "put"},
                          {"flags", {"rndv"}},
                          {"peer", 0},
                          {"seq", 1},
                          {"bytes", 8},
                          {"t0", 20}});
  r0["events"].push_back(sent(1, 2, "put", json::array(), 30));
  const Trace t = merge_rank_traces({r0, r1, json()});
  ASSERT_EQ(t.packets.size(), 2u);
  EXPECT_TRUE(t.packets[0].arrived_ns.has_value());
  EXPECT_FALSE(t.packets[0].handled_ns.has_value());
  EXPECT_FALSE(t.packets[1].arrived_ns.has_value());
  EXPECT_EQ(t.dropped, (std::vector<std::uint64_t>{3, 0, 0}));
  EXPECT_EQ(t.missing, std::vector<int>{2});
  const auto lines = trace_lines(t, false);
  ASSERT_GE(lines.size(), 4u);
  EXPECT_NE(lines[0].find("NOT HANDLED"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("NOT RECEIVED"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("3 earlier events dropped"), std::string::npos);
  EXPECT_NE(lines[3].find("rank 2: no trace"), std::string::npos);
  const std::string svg = sequence_svg(t);
  EXPECT_EQ(count(svg, "<g class=\"packet\">"), 2u);
  EXPECT_EQ(count(svg, "stroke-dasharray=\"6,4\""), 2u);  // neither was handled
}

TEST(Trace, JsonRoundTripAndFieldErrors) {
  const Trace t = merge_rank_traces(lock_put_unlock());
  EXPECT_EQ(trace_from_json(to_json(t)), t);
  json broken = to_json(t);
  broken.erase("packets");
  try {
    trace_from_json(broken, "cases[0].trace");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cases[0].trace.packets"), std::string::npos) << e.what();
  }
}

Report traced_report() {
  Report r;
  CaseResult c;
  c.id = "passive/lock_put_unlock[shm,am,np=2]";
  c.status = Verdict::pass;
  c.ranks = 2;
  c.messages.measured = true;
  c.messages.total = 2;
  c.messages.by_type = {{"ack", 1}, {"put", 1}};
  c.messages.expected = {{"total", 2}};
  c.trace = to_json(merge_rank_traces(lock_put_unlock()));
  r.cases.push_back(c);
  CaseResult plain;
  plain.id = "untraced";
  plain.status = Verdict::pass;
  r.cases.push_back(plain);
  r.finish();
  return r;
}

// The Chrome trace-event format's object form: traceEvents; every event a name, a phase, a
// pid and a tid, a ts except metadata; complete events a dur; flow events an id, each start
// with its finish.
TEST(ChromeTrace, RequiredFieldsProcessesPerRankFlowsPerPacket) {
  const Report r = traced_report();
  ASSERT_TRUE(has_traces(r));
  std::ostringstream out;
  write_chrome_trace(r, out);
  const json doc = json::parse(out.str());
  ASSERT_TRUE(doc["traceEvents"].is_array());
  std::set<int> pids;
  std::multiset<std::string> flows;
  std::map<std::uint64_t, int> flow_ends;
  for (const json& e : doc["traceEvents"]) {
    ASSERT_TRUE(e["name"].is_string()) << e;
    ASSERT_TRUE(e["ph"].is_string()) << e;
    ASSERT_TRUE(e["pid"].is_number_integer()) << e;
    ASSERT_TRUE(e["tid"].is_number_integer()) << e;
    const std::string ph = e["ph"];
    ASSERT_TRUE(ph == "M" || ph == "X" || ph == "s" || ph == "f") << e;
    if (ph != "M") {
      ASSERT_TRUE(e["ts"].is_number()) << e;
    }
    if (ph == "X") {
      ASSERT_TRUE(e["dur"].is_number() && e["dur"].get<double>() >= 0) << e;
    }
    if (ph == "M" && e["name"] == "process_name") pids.insert(e["pid"].get<int>());
    if (ph == "s") flows.insert(e["name"].get<std::string>());
    if (ph == "s" || ph == "f") flow_ends[e["id"].get<std::uint64_t>()] += ph == "s" ? 1 : 2;
  }
  EXPECT_EQ(pids, (std::set<int>{0, 1}));
  EXPECT_EQ(flows, (std::multiset<std::string>{"ack", "put"}));
  for (const auto& [id, both] : flow_ends) EXPECT_EQ(both, 3) << "flow " << id;
}

TEST(ChromeTrace, HtmlDrawsTheDiagramBesideTheCountsAndMarkdownListsThePackets) {
  const Report r = traced_report();
  std::ostringstream html, md;
  write_html(r, html);
  write_markdown(r, md);
  EXPECT_EQ(count(html.str(), "<svg class=\"sequence\""), 1u);
  EXPECT_EQ(count(html.str(), "<g class=\"packet\">"), 2u);
  EXPECT_NE(html.str().find("put [lock_exclusive, unlock, ack_req]"), std::string::npos);
  EXPECT_NE(html.str().find("<div class=\"beside\">"), std::string::npos);
  EXPECT_NE(md.str().find("## Packet sequences"), std::string::npos);
  EXPECT_NE(md.str().find("rank 0 -> rank 1  put [lock_exclusive, unlock, ack_req] 8 B"),
            std::string::npos)
      << md.str();
  Report plain = r;
  plain.cases.erase(plain.cases.begin());
  EXPECT_FALSE(has_traces(plain));
  std::ostringstream html2;
  write_html(plain, html2);
  EXPECT_EQ(html2.str().find("Sequence diagrams"), std::string::npos);
}

}  // namespace
}  // namespace reports
