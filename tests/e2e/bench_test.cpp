// End-to-end: `rmabench bench --impl ref,mpich,openmpi` — every implementation listed runs the
// same pattern in one run and gets its rows (report entries carrying `impl`, one console table
// with a column group each), and the hardware floor is measured after the shared-memory cases.
// Structure only: nothing here looks at how fast anything was.
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

using nlohmann::json;

int count_lines_starting(const std::string& text, const std::string& prefix) {
  int n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) n += line.rfind(prefix, 0) == 0;
  return n;
}

TEST(Bench, ImplementationsSideBySideInOneRun) {
  const std::vector<std::string> mpis = e2e::built_mpis();
  if (mpis.empty()) GTEST_SKIP() << "no MPI worker built (ci/setup.sh --with-extras installs both)";
  std::string list = "ref";
  for (const auto& m : mpis) list += "," + m;
  const std::string dir = e2e::temp_dir("bench-impls");
  const auto r = e2e::run({"bench", "lua_scripts/bench/latency.lua", "--impl", list, "--sizes",
                           "8,64", "--min-time", "0.001", "--report-dir", dir, "--format", "json"},
                          280);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");

  // One case per implementation and the floor, all passed: an MPI's plain-C figures are
  // timed inside its case, not in a case of their own.
  ASSERT_EQ(report["cases"].size(), mpis.size() + 2) << report["cases"].dump(2);
  for (const auto& c : report["cases"]) EXPECT_EQ(c["status"], "pass") << c.dump(2);
  EXPECT_EQ(report["cases"].back()["id"], "floor[shm,np=2]");
  // Each MPI figure has its plain-C one from the same case, beside the replay it names.
  std::map<std::string, std::string> case_of_run;
  for (const auto& b : report["benchmarks"])
    if (!b.contains("calibration")) case_of_run[b.value("run_name", "")] = b.value("case", "");
  std::set<std::string> plain;  // run names: one per figure, whatever the repetitions
  for (const auto& b : report["benchmarks"]) {
    if (b.value("calibration", "") != "plain_c") continue;
    plain.insert(b.value("run_name", ""));
    EXPECT_FALSE(b.value("error_occurred", false)) << b.dump(2);
    EXPECT_GT(b.value("real_time", 0.0), 0.0) << b.dump(2);
    ASSERT_TRUE(case_of_run.count(b["replayed"])) << b.dump(2);
    EXPECT_EQ(case_of_run[b["replayed"]], b["case"]) << b.dump(2);
  }
  EXPECT_EQ(plain.size(), 2 * mpis.size());  // two sizes each

  // Rows: every implementation at every size, each entry naming who ran it.
  std::map<std::string, std::set<std::uint64_t>> sizes_by_impl;
  std::set<std::string> names;
  for (const auto& b : report["benchmarks"]) {
    ASSERT_TRUE(b.contains("impl")) << b.dump(2);
    EXPECT_TRUE(names.insert(b["name"].get<std::string>()).second) << "duplicate " << b["name"];
    if (b["pattern"] == "bench/latency" && !b.contains("calibration"))
      sizes_by_impl[b["impl"].get<std::string>()].insert(b["size"].get<std::uint64_t>());
  }
  ASSERT_EQ(sizes_by_impl.size(), mpis.size() + 1) << report["benchmarks"].dump(2);
  EXPECT_EQ(sizes_by_impl["ref"], (std::set<std::uint64_t>{8, 64}));
  for (const auto& m : mpis) {
    bool found = false;
    for (const auto& [impl, sizes] : sizes_by_impl)
      if (impl.rfind(m + " ", 0) == 0) {
        found = true;
        EXPECT_EQ(sizes, (std::set<std::uint64_t>{8, 64})) << impl;
      }
    EXPECT_TRUE(found) << m << " has no rows";
  }
  // The MPIs' packets are not observable, nor a plain C program's: null or absent, never 0,
  // with the reason.
  for (const auto& b : report["benchmarks"]) {
    if (b["pattern"] == "bench/latency" && b["impl"] != "ref") {
      EXPECT_TRUE(!b.contains("messages_per_iteration") || b["messages_per_iteration"].is_null())
          << b.dump(2);
      EXPECT_FALSE(b.value("messages_reason", "").empty()) << b.dump(2);
    }
  }

  // The floor, over the sizes the run measured.
  std::set<std::string> floor_ops;
  std::map<std::string, std::set<std::uint64_t>> sizes_by_op;
  for (const auto& b : report["benchmarks"])
    if (b["pattern"] == "floor") {
      floor_ops.insert(b["op"].get<std::string>());
      sizes_by_op[b["op"].get<std::string>()].insert(b["size"].get<std::uint64_t>());
    }
  EXPECT_EQ(floor_ops, (std::set<std::string>{"cache_line_round_trip", "queue_round_trip", "memcpy",
                                              "handoff"}));
  EXPECT_EQ(sizes_by_op["memcpy"], (std::set<std::uint64_t>{8, 64}));
  EXPECT_EQ(sizes_by_op["handoff"], (std::set<std::uint64_t>{8, 64}));
  // Each reference figure carries the round trip its ranks measured just before it; an MPI's
  // is read against the floor case.
  for (const auto& b : report["benchmarks"]) {
    if (b["pattern"] != "bench/latency") continue;
    if (b["impl"] == "ref") {
      for (const char* rt : {"floor_round_trip_us", "queue_round_trip_us"}) {
        ASSERT_TRUE(b.contains(rt)) << rt << b.dump(2);
        EXPECT_GT(b[rt].get<double>(), 0.0) << rt << b.dump(2);
      }
    } else {
      EXPECT_FALSE(b.contains("floor_round_trip_us")) << b.dump(2);
      EXPECT_FALSE(b.contains("queue_round_trip_us")) << b.dump(2);
    }
  }

  // The run's implementations in the context, each MPI with its launcher.
  const json& impls = report["context"]["options"]["impls"];
  ASSERT_EQ(impls.size(), mpis.size() + 1) << impls.dump(2);
  EXPECT_EQ(impls[0]["impl"], "ref");
  for (std::size_t i = 0; i < mpis.size(); ++i) {
    EXPECT_EQ(impls[i + 1]["impl"], mpis[i]);
    EXPECT_TRUE(impls[i + 1].contains("launcher"));
  }

  // One console table with a column group per implementation, read against the floor.
  EXPECT_EQ(count_lines_starting(r.out, "# bench/latency"), 1) << r.out;
  EXPECT_EQ(count_lines_starting(r.out,
                                 "# floor: cache-line round trip between the ranks' cores, "
                                 "measured just before each reference figure"),
            1)
      << r.out;
  EXPECT_NE(r.out.find("xref"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("xrt"), std::string::npos) << r.out;
  // The am column read against the handoff of its size, the floor group showing it.
  EXPECT_NE(r.out.find(" xho "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("xho: to a round trip carrying the size through shared memory"),
            std::string::npos)
      << r.out;
  const std::size_t memcpy_head = r.out.find("memcpy us");
  ASSERT_NE(memcpy_head, std::string::npos) << r.out;
  const std::size_t handoff_head = r.out.find(" ho us", memcpy_head);
  ASSERT_NE(handoff_head, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\n', memcpy_head), r.out.find('\n', handoff_head)) << r.out;
  for (const auto& m : mpis) EXPECT_NE(r.out.find(m + " "), std::string::npos) << r.out;
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
  EXPECT_TRUE(e2e::leftover_segments(r.pid).empty());
}

// An MPI's send/recv round trip has its plain-C figure too: the replayed ping-pong is read
// against MPI_Send/MPI_Recv in a C loop with that library, a time and no error.
TEST(Bench, AnMpisPingPongIsReadAgainstPlainC) {
  const std::vector<std::string> mpis = e2e::built_mpis();
  if (mpis.empty()) GTEST_SKIP() << "no MPI worker built (ci/setup.sh --with-extras installs both)";
  const std::string dir = e2e::temp_dir("bench-pingpong-c");
  const auto r =
      e2e::run({"bench", "lua_scripts/bench/pingpong.lua", "--impl", mpis.front(), "--min-time",
                "0.001", "--no-floor", "--report-dir", dir, "--format", "json"},
               120);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  int plain_c = 0;
  for (const auto& b : report["benchmarks"]) {
    if (b.value("calibration", "") != "plain_c") continue;
    ++plain_c;
    EXPECT_EQ(b["pattern"], "bench/pingpong") << b.dump(2);
    EXPECT_FALSE(b.value("error_occurred", false)) << b.dump(2);
    EXPECT_GT(b.value("real_time", 0.0), 0.0) << b.dump(2);
  }
  EXPECT_EQ(plain_c, 1) << report["benchmarks"].dump(2);
  EXPECT_NE(r.out.find("C us"), std::string::npos) << r.out;
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
}

TEST(Bench, TheFloorIsSkippedOnRequest) {
  const std::string dir = e2e::temp_dir("bench-nofloor");
  const auto r = e2e::run({"bench", "lua_scripts/bench/pingpong.lua", "--min-time", "0.001",
                           "--no-floor", "--report-dir", dir, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 1u);
  for (const auto& b : report["benchmarks"]) {
    EXPECT_EQ(b["impl"], "ref");
    EXPECT_NE(b["pattern"], "floor");
    EXPECT_FALSE(b.contains("floor_round_trip_us")) << b.dump(2);
  }
  EXPECT_EQ(r.out.find("# floor"), std::string::npos) << r.out;
}

// A figure of more than two ranks is read against the run's floor case, not a round trip of
// its own: on fewer cores than ranks that round trip would measure the scheduler. (Two-rank
// figures carry theirs: Bench.ImplementationsSideBySideInOneRun.)
TEST(Bench, FiguresOfMoreRanksHaveNoFloorOfTheirOwn) {
  const std::string dir = e2e::temp_dir("bench-ownfloor");
  const auto r = e2e::run({"bench", "lua_scripts/fence/fence_ring.lua", "-n", "4", "--min-time",
                           "0.001", "--report-dir", dir, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  int figures = 0;
  for (const auto& b : report["benchmarks"]) {
    if (b["pattern"] == "floor") continue;
    ++figures;
    EXPECT_EQ(b["ranks"], 4) << b.dump(2);
    EXPECT_FALSE(b.contains("floor_round_trip_us")) << b.dump(2);
  }
  EXPECT_GT(figures, 0) << report.dump(2);
  EXPECT_EQ(report["cases"].back()["id"], "floor[shm,np=2]");
  EXPECT_NE(r.out.find("# floor, this run"), std::string::npos) << r.out;
}

// The gate pairs figures by name, so two cases of one script, told apart by an option or the
// rank count, must not share one: the name says what the case id says, and each entry
// names its case.
TEST(Bench, CasesOfOneScriptHaveFiguresOfTheirOwnName) {
  const std::string dir = e2e::temp_dir("bench-matrix");
  const auto r = e2e::run({"bench", "tests/e2e/scripts/bench_matrix_suite.lua", "--min-time",
                           "0.001", "--no-floor", "--report-dir", dir, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  std::set<std::string> ids, names, cases_with_figures;
  for (const auto& c : report["cases"]) ids.insert(c["id"].get<std::string>());
  ASSERT_EQ(ids.size(), 4u) << report.dump(2);
  for (const auto& b : report["benchmarks"]) {
    EXPECT_TRUE(names.insert(b["name"].get<std::string>()).second) << "duplicate " << b["name"];
    ASSERT_TRUE(b.contains("case")) << b.dump(2);
    EXPECT_TRUE(ids.count(b["case"].get<std::string>())) << b.dump(2);
    cases_with_figures.insert(b["case"].get<std::string>());
  }
  EXPECT_EQ(cases_with_figures, ids);
  EXPECT_TRUE(names.count("bench/latency/lock/8/shm:am/np:3/op:get/min_time:0.001/manual_time"))
      << report["benchmarks"].dump(2);
  const auto g = e2e::run({"gate", dir + "/report.json", "--baseline", dir + "/report.json"});
  EXPECT_EQ(g.exit_code, 0) << g.out << g.err;
}

// A zero-byte op sends nothing: its epoch costs what an empty one does under every sync and
// both protocols, and the latency script declares that count (it declared the op's packets
// before, so each of these cases failed on its message count).
TEST(Bench, ZeroByteOpsDeclareTheCountOfAnEmptyEpoch) {
  const std::string dir = e2e::temp_dir("bench-zero-size");
  const auto r = e2e::run({"run", "tests/e2e/scripts/bench_zero_size_suite.lua", "--report-dir",
                           dir, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 36u) << report.dump(2);
  for (const auto& c : report["cases"]) EXPECT_EQ(c["status"], "pass") << c.dump(2);
}

// --sizes replaces the sizes a suite lists: each configuration is one case, named without a
// size, measuring the given sizes once. Before, each listed size stayed a case that measured
// the given sizes again, under an id naming a size it did not measure, and their figures
// shared names.
TEST(Bench, SizesGivenReplaceASuitesSizesWithOneCasePerConfiguration) {
  const std::string dir = e2e::temp_dir("bench-sizes-fold");
  const auto r =
      e2e::run({"bench", "suites/latency_vs_pingpong.lua", "--sizes", "8,64", "--min-time", "0.001",
                "--no-floor", "--report-dir", dir, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  // pingpong on am; lock-put-unlock on am and on direct
  ASSERT_EQ(report["cases"].size(), 3u) << report.dump(2);
  std::set<std::string> ids;
  for (const auto& c : report["cases"]) {
    const std::string id = c["id"];
    EXPECT_EQ(id.find("size="), std::string::npos) << id;
    ids.insert(id);
  }
  EXPECT_EQ(ids.size(), 3u) << report.dump(2);
  std::map<std::string, std::set<std::uint64_t>> sizes;  // case -> sizes it measured
  std::set<std::string> names;
  for (const auto& b : report["benchmarks"]) {
    if (b["run_type"] != "iteration") continue;
    EXPECT_TRUE(names.insert(b["name"].get<std::string>()).second) << "duplicate " << b["name"];
    sizes[b["case"].get<std::string>()].insert(b["size"].get<std::uint64_t>());
  }
  ASSERT_EQ(sizes.size(), 3u) << report["benchmarks"].dump(2);
  for (const auto& [id, measured] : sizes)
    EXPECT_EQ(measured, (std::set<std::uint64_t>{8, 64})) << id;

  // --filter still takes an id as the suite alone names it, size included, and the id
  // without one.
  const std::vector<std::string> filters{"latency[shm,am,np=2,op=put,size=65536,sync=lock]",
                                         "latency[shm,am,np=2,op=put,sync=lock]"};
  for (std::size_t i = 0; i < filters.size(); ++i) {
    const std::string& filter = filters[i];
    const std::string one = dir + "/filter" + std::to_string(i);
    const auto f =
        e2e::run({"bench", "suites/latency_vs_pingpong.lua", "--sizes", "8", "--min-time", "0.001",
                  "--no-floor", "--filter", filter, "--report-dir", one, "--format", "json"});
    ASSERT_EQ(f.exit_code, 0) << filter << "\n" << f.out << f.err;
    const json r1 = e2e::read_json(one + "/report.json");
    ASSERT_EQ(r1["cases"].size(), 1u) << r1.dump(2);
    EXPECT_EQ(r1["cases"][0]["id"],
              "latency_vs_pingpong/bench/latency[shm,am,np=2,op=put,sync=lock]");
  }
}

// A configuration a suite runs at one size and excludes at another is, under --sizes, one
// case that runs, not also an excluded one of the same id (the gate refuses a report that
// has an id twice).
TEST(Bench, SizesGivenRunAConfigurationExcludedAtOneOfItsSizes) {
  const std::string dir = e2e::temp_dir("bench-sizes-excluded");
  const auto r =
      e2e::run({"bench", "tests/e2e/scripts/bench_sizes_excluded_suite.lua", "--sizes", "8",
                "--min-time", "0.001", "--no-floor", "--report-dir", dir, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 1u) << report.dump(2);
  EXPECT_EQ(report["cases"][0]["id"], "sizes_excluded/bench/latency[shm,am,np=2,op=put,sync=lock]");
  EXPECT_EQ(report["cases"][0]["status"], "pass") << report["cases"][0].dump(2);
}

// A suite entry run under both am protocols is one launch per pattern: both figures are
// recorded on windows of their own protocol and led together, their repetitions interleaved
// (worker/bench_loop.hpp). The counts say each figure ran its own protocol.
TEST(Bench, ProtocolsOfOnePatternRunInterleavedInOneLaunch) {
  const std::string dir = e2e::temp_dir("bench-protocols");
  const auto r = e2e::run({"bench", "suites/protocols.lua", "--min-time", "0.001", "--repetitions",
                           "2", "--no-floor", "--report-dir", dir, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 3u) << report.dump(2);
  for (const auto& c : report["cases"]) {
    EXPECT_NE(c["id"].get<std::string>().find(",protocol=fewest+ch3]"), std::string::npos)
        << c["id"];
    EXPECT_EQ(c["protocol"], "fewest+ch3");
  }
  // pattern -> protocol -> messages per iteration of every repetition
  std::map<std::string, std::map<std::string, std::vector<double>>> msgs;
  std::map<std::string, std::map<std::string, double>> expected;
  for (const auto& b : report["benchmarks"]) {
    EXPECT_EQ(b.value("interleaved", false), true) << b.dump(2);
    if (b["run_type"] != "iteration") continue;
    const std::string pattern = b["pattern"], protocol = b["protocol"];
    msgs[pattern][protocol].push_back(b["messages_per_iteration"].get<double>());
    expected[pattern][protocol] = b["messages_expected"].get<double>();
  }
  ASSERT_EQ(msgs.size(), 3u) << report.dump(2);
  for (const auto& [pattern, by_protocol] : msgs) {
    ASSERT_EQ(by_protocol.size(), 2u) << pattern;
    for (const auto& [protocol, values] : by_protocol) EXPECT_EQ(values.size(), 2u) << pattern;
  }
  for (double m : msgs["passive/lock_three_puts_unlock"]["fewest"]) EXPECT_EQ(m, 4);
  for (double m : msgs["passive/lock_three_puts_unlock"]["ch3"]) EXPECT_EQ(m, 6);
  for (double m : msgs["pscw/post_start_put"]["ch3"]) EXPECT_EQ(m, 2);
  for (double m : msgs["passive/lock_put_unlock"]["ch3"]) EXPECT_EQ(m, 2);
  EXPECT_EQ(expected["passive/lock_three_puts_unlock"]["fewest"], 4);
  EXPECT_EQ(expected["passive/lock_three_puts_unlock"]["ch3"], 6);
  EXPECT_EQ(expected["pscw/post_start_put"]["fewest"], 1);
  EXPECT_EQ(expected["pscw/post_start_put"]["ch3"], 2);
  EXPECT_EQ(count_lines_starting(r.out, "# passive/lock_three_puts_unlock"), 1) << r.out;
  EXPECT_NE(r.out.find("(protocols interleaved in one launch)"), std::string::npos) << r.out;
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
  EXPECT_TRUE(e2e::leftover_segments(r.pid).empty());
}

// --filter on a bench run matches the id a case has once paired (as a report shows it) as
// well as the ids before pairing: one protocol's id runs that protocol alone.
TEST(Bench, FilterMatchesThePairedIdAndTheIdsBeforeIt) {
  const std::string dir = e2e::temp_dir("bench-protocols-filter");
  const auto paired =
      e2e::run({"bench", "suites/protocols.lua", "--min-time", "0.001", "--no-floor", "--filter",
                "protocols/passive/lock_three_puts_unlock[shm,am,np=2,protocol=fewest+ch3]",
                "--report-dir", dir + "/paired", "--format", "json"});
  ASSERT_EQ(paired.exit_code, 0) << paired.out << paired.err;
  json report = e2e::read_json(dir + "/paired/report.json");
  ASSERT_EQ(report["cases"].size(), 1u) << report.dump(2);
  std::set<std::string> protocols;
  for (const auto& b : report["benchmarks"]) protocols.insert(b["protocol"].get<std::string>());
  EXPECT_EQ(protocols, (std::set<std::string>{"fewest", "ch3"}));

  const auto alone = e2e::run({"bench", "suites/protocols.lua", "--min-time", "0.001", "--no-floor",
                               "--filter", "lock_three_puts_unlock[shm,am,np=2,protocol=ch3]",
                               "--report-dir", dir + "/alone", "--format", "json"});
  ASSERT_EQ(alone.exit_code, 0) << alone.out << alone.err;
  report = e2e::read_json(dir + "/alone/report.json");
  ASSERT_EQ(report["cases"].size(), 1u) << report.dump(2);
  EXPECT_EQ(report["cases"][0]["protocol"], "ch3");
  for (const auto& b : report["benchmarks"]) {
    EXPECT_EQ(b["protocol"], "ch3");
    EXPECT_FALSE(b.contains("interleaved")) << b.dump(2);
  }

  const auto none = e2e::run({"bench", "suites/protocols.lua", "--filter", "no-such-case"});
  EXPECT_EQ(none.exit_code, 2) << none.out << none.err;
  EXPECT_NE(none.err.find("no case to run matches --filter"), std::string::npos) << none.err;
}

// On fabric a two-rank reference figure carries the raw send/recv round trip measured just
// before it in the same launch (worker/floor_bench.hpp, raw_round_trip_us), and no
// shared-memory floor case runs.
TEST(Bench, FabricFiguresCarryTheRawRoundTripOfTheirLaunch) {
  if (e2e::run({"info"}).out.find("fabric") == std::string::npos)
    GTEST_SKIP() << "this build has no fabric backend";
  const std::string dir = e2e::temp_dir("bench-fabric-floor");
  const auto r = e2e::run({"bench", "lua_scripts/bench/pingpong.lua", "--backend", "fabric",
                           "--min-time", "0.001", "--report-dir", dir, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  ASSERT_EQ(report["cases"].size(), 1u) << report.dump(2);  // no floor case: nothing on shm
  ASSERT_FALSE(report["benchmarks"].empty());
  for (const auto& b : report["benchmarks"]) {
    EXPECT_EQ(b["backend"], "fabric");
    ASSERT_TRUE(b.contains("floor_round_trip_us")) << b.dump(2);
    EXPECT_GT(b["floor_round_trip_us"].get<double>(), 0.0) << b.dump(2);
    EXPECT_FALSE(b.contains("queue_round_trip_us")) << b.dump(2);  // no shm queue on fabric
  }
  EXPECT_NE(r.out.find("# floor off shared memory: raw send/recv round trip"), std::string::npos)
      << r.out;
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
}

TEST(Bench, AListOfImplementationsIsForBenchOnly) {
  const auto r = e2e::run({"run", "lua_scripts/bench/pingpong.lua", "--impl", "ref,mpich"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("a list is for `rmabench bench`"), std::string::npos) << r.err;
  const auto twice = e2e::run({"bench", "lua_scripts/bench/pingpong.lua", "--impl", "ref,ref"});
  EXPECT_EQ(twice.exit_code, 2) << twice.out << twice.err;
  EXPECT_NE(twice.err.find("ref is listed twice"), std::string::npos) << twice.err;
}

}  // namespace
