// End-to-end: --trace. trace.json in Chrome's trace-event format with exactly the case's
// packets and flags, the sequence diagram in report.html drawn in headless Chromium (a
// screenshot kept beside the report), the deadlock's trace up to where it stopped with the
// rank states beside it, `rmabench describe --trace`, and nothing traced without the flag.
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

using e2e::run;
using nlohmann::json;

// The fields the Chrome trace-event format requires of each event (the JSON object form):
// "" when the document has them, else the first that is missing or wrong.
std::string chrome_trace_errors(const json& doc) {
  if (!doc.is_object() || !doc.contains("traceEvents") || !doc["traceEvents"].is_array())
    return "no traceEvents array";
  std::map<std::uint64_t, std::string> flow_phases;
  for (const json& e : doc["traceEvents"]) {
    const std::string where = e.dump();
    if (!e.contains("name") || !e["name"].is_string()) return "name: " + where;
    if (!e.contains("ph") || !e["ph"].is_string()) return "ph: " + where;
    if (!e.contains("pid") || !e["pid"].is_number_integer()) return "pid: " + where;
    if (!e.contains("tid") || !e["tid"].is_number_integer()) return "tid: " + where;
    const std::string ph = e["ph"];
    if (ph != "M" && (!e.contains("ts") || !e["ts"].is_number())) return "ts: " + where;
    if (ph == "X" && (!e.contains("dur") || !e["dur"].is_number() || e["dur"].get<double>() < 0))
      return "dur: " + where;
    if (ph == "M" && !e.contains("args")) return "args: " + where;
    if (ph == "s" || ph == "f") {
      if (!e.contains("id")) return "id: " + where;
      flow_phases[e["id"].get<std::uint64_t>()] += ph;
    }
  }
  for (const auto& [id, phases] : flow_phases)
    if (phases != "sf") return "flow " + std::to_string(id) + " has phases " + phases;
  return "";
}

// Packets of the file: the flow starts, by name, with the sender's args.
std::vector<json> packet_slices_sent(const json& doc) {
  std::vector<json> out;
  std::set<std::pair<double, int>> starts;
  for (const json& e : doc["traceEvents"])
    if (e["ph"] == "s") starts.insert({e["ts"].get<double>(), e["pid"].get<int>()});
  for (const json& e : doc["traceEvents"])
    if (e["ph"] == "X" && e.value("cat", "") == "packet" &&
        starts.count({e["ts"].get<double>(), e["pid"].get<int>()}) && e["args"]["src"] == e["pid"])
      out.push_back(e);
  return out;
}

// Runs the browser check; false (and the test skipped) when Chromium or PIL is missing.
bool browser_check(const std::string& html, const std::vector<std::string>& extra, bool& passed,
                   std::string& said) {
  const std::string py = "/usr/bin/python3";
  std::vector<std::string> args = {e2e::source_dir() + "/reports/testing/check_sequence_diagram.py",
                                   html};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = e2e::run_program(py, args, 280);
  said = r.out + r.err;
  if (r.exit_code == 77) return false;
  passed = r.exit_code == 0;
  return true;
}

TEST(Trace, LockPutUnlockTraceJsonHasTheTwoPacketsAndTheDiagramDraws) {
  const std::string dir = e2e::temp_dir("trace_lpu");
  auto r = run({"run", "lua_scripts/passive/lock_put_unlock.lua", "--trace", "--format",
                "json,html,md", "--report-dir", dir},
               120);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json doc = e2e::read_json(dir + "/trace.json");
  EXPECT_EQ(chrome_trace_errors(doc), "");
  const std::vector<json> packets = packet_slices_sent(doc);
  ASSERT_EQ(packets.size(), 2u) << doc.dump(1);
  std::map<std::string, json> by_name;
  for (const json& p : packets) by_name[p["name"]] = p;
  ASSERT_TRUE(by_name.count("put") && by_name.count("ack")) << doc.dump(1);
  const json& put = by_name["put"];
  EXPECT_EQ(put["pid"], 0);
  EXPECT_EQ(put["args"]["dst"], 1);
  const auto flags = put["args"]["flags"].get<std::set<std::string>>();
  EXPECT_TRUE(flags.count("lock_exclusive")) << put;  // the lock request rides on the put
  EXPECT_TRUE(flags.count("unlock")) << put;          // and so does the unlock
  EXPECT_EQ(by_name["ack"]["pid"], 1);
  EXPECT_EQ(by_name["ack"]["args"]["dst"], 0);
  // One process per rank, named.
  std::set<int> named;
  for (const json& e : doc["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "process_name") named.insert(e["pid"].get<int>());
  EXPECT_EQ(named, (std::set<int>{0, 1}));

  const json report = e2e::read_json(dir + "/report.json");
  EXPECT_EQ(e2e::schema_errors(dir + "/report.json"), "");
  EXPECT_EQ(report["cases"][0]["trace"]["packets"].size(), 2u);
  std::ifstream md(dir + "/report.md");
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("rank 0 -> rank 1  put ["), std::string::npos) << text;
  EXPECT_NE(text.find("rank 1 -> rank 0  ack"), std::string::npos) << text;

  bool passed = false;
  std::string said;
  const std::string png = dir + "/diagram.png";
  if (!browser_check(dir + "/report.html", {"--arrows", "2", "--keep-png", png}, passed, said))
    GTEST_SKIP() << said;
  EXPECT_TRUE(passed) << said;
  EXPECT_TRUE(std::filesystem::exists(png));
  std::cout << "screenshot: " << png << "\n";
  // The check sees arrows that did not draw.
  ASSERT_TRUE(browser_check(dir + "/report.html",
                            {"--arrows", "2", "--hide-arrows", "--expect-failure"}, passed, said));
  EXPECT_TRUE(passed) << said;
}

TEST(Trace, SyncOnlyDeadlockShowsThePacketsUpToTheStopBesideTheRankStates) {
  const std::string dir = e2e::temp_dir("trace_sync_only");
  auto r = run({"run", "suites/quick.lua", "--filter", "start_recv_complete[shm,am", "--progress",
                "sync_only", "--trace", "--format", "json,html,md", "--report-dir", dir},
               120);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;  // the deadlock is the expected outcome
  const json report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 1u) << r.out;
  const json& c = report["cases"][0];
  EXPECT_EQ(c["status"], "deadlock");
  ASSERT_TRUE(c.contains("trace")) << c.dump(1);
  const json& packets = c["trace"]["packets"];
  ASSERT_GE(packets.size(), 1u) << c["trace"].dump(1);
  // Rank 0's put went out; rank 1, in recv, never handled it: that is where it stopped.
  bool kept = false;
  for (const json& p : packets)
    if (p["src"] == 0 && p["dst"] == 1 && p["handled_ns"].is_null()) kept = true;
  EXPECT_TRUE(kept) << packets.dump(1);
  for (const json& s : c["rank_states"]) EXPECT_FALSE(s.contains("trace"));  // moved out
  const json doc = e2e::read_json(dir + "/trace.json");
  EXPECT_EQ(chrome_trace_errors(doc), "");

  bool passed = false;
  std::string said;
  const std::string png = dir + "/diagram.png";
  if (!browser_check(
          dir + "/report.html",
          {"--arrows", std::to_string(packets.size()), "--rank-states", "--keep-png", png}, passed,
          said))
    GTEST_SKIP() << said;
  EXPECT_TRUE(passed) << said;
  std::cout << "screenshot: " << png << "\n";
}

TEST(Trace, DescribeTracePrintsTheSequenceAndDrawsIt) {
  const std::string dir = e2e::temp_dir("trace_describe");
  auto r = run(
      {"describe", "lua_scripts/passive/lock_put_unlock.lua", "--trace", "--svg", dir + "/lpu.svg"},
      120);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("2 RMA packets (ack 1, put 1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rank 0  lock(1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rank 0 -> rank 1  put ["), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rank 1 -> rank 0  ack"), std::string::npos) << r.out;
  std::ifstream svg(dir + "/lpu.svg");
  std::stringstream s;
  s << svg.rdbuf();
  std::size_t arrows = 0;
  for (auto p = s.str().find("<g class=\"packet\">"); p != std::string::npos;
       p = s.str().find("<g class=\"packet\">", p + 1))
    ++arrows;
  EXPECT_EQ(arrows, 2u);
  // --svg without --trace is a usage error.
  auto u = run({"describe", "lua_scripts/passive/lock_put_unlock.lua", "--svg", dir + "/x.svg"});
  EXPECT_EQ(u.exit_code, 2) << u.out << u.err;
}

TEST(Trace, WithoutTheFlagNothingIsTraced) {
  const std::string dir = e2e::temp_dir("trace_off");
  auto r = run({"run", "lua_scripts/passive/lock_put_unlock.lua", "--format", "json,html",
                "--report-dir", dir});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_FALSE(e2e::read_json(dir + "/report.json")["cases"][0].contains("trace"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/trace.json"));
}

}  // namespace
