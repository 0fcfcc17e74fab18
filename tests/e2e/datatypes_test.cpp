// End-to-end: derived datatypes on every path of the reference — the datatype suite (the
// ports of MPICH's derived-type tests and the datatype-pool sweep) on shm am and direct, a
// part of it on fabric, what a derived op costs in packets on the am path, and the misuse
// script on an MPI library.
#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

using e2e::run;
using nlohmann::json;

std::string last_line(const std::string& s) {
  std::string t = s;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t.substr(t.rfind('\n') == std::string::npos ? 0 : t.rfind('\n') + 1);
}

TEST(Datatypes, SuitePassesOnShmAmAndDirect) {
  const std::string dir = e2e::temp_dir("dt-shm");
  // The whole suite: about 50 s on 2 idle cores, so more than the default minute.
  auto r = run({"run", "suites/datatypes.lua", "--report-dir", dir}, 240);
  EXPECT_EQ(r.exit_code, 0) << last_line(r.out) << "\n" << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  EXPECT_GT(report["cases"].size(), 100u);
  EXPECT_TRUE(e2e::leftover_segments(r.pid).empty()) << "shared segments left behind";
}

TEST(Datatypes, PassiveTargetPortsPassOnFabricAmAndDirect) {
  const std::string dir = e2e::temp_dir("dt-fabric");
  auto r =
      run({"run", "suites/datatypes.lua", "--backend", "fabric", "--provider", "tcp;ofi_rxm",
           "--filter", "lock_dt", "--report-dir", dir},
          240);  // 49 cases over tcp: a minute on a quiet 2-core machine, twice that under load
  EXPECT_EQ(r.exit_code, 0) << last_line(r.out) << "\n" << r.err;
  const json report = e2e::read_json(dir + "/report.json");
  EXPECT_GE(report["cases"].size(), 20u);
}

// A pair's padding where the shm suite does not go: fabric's paths (its direct path sends a
// plain op of such pairs by packets, and a layout op one native call per stretch), and 9 shm
// ranks, whose packets are not a multiple of 16 bytes while a fragment must hold whole pairs.
TEST(Datatypes, PairPaddingKeepsOnFabricAndWithNineRanks) {
  const std::string dir = e2e::temp_dir("dt-pad-fabric");
  auto r = run({"run", "suites/datatypes.lua", "--backend", "fabric", "--provider", "tcp;ofi_rxm",
                "--filter", "count=8200,dtype=long_int", "--report-dir", dir},
               240);  // 4 cases: about 8 s on a quiet 2-core machine
  EXPECT_EQ(r.exit_code, 0) << last_line(r.out) << "\n" << r.err;
  EXPECT_EQ(e2e::read_json(dir + "/report.json")["cases"].size(), 4u);
  // 2100 pairs: the first fragment (32,712 B before the cut) ended inside pair 2044.
  auto nine = run({"run", "lua_scripts/datatypes/pairs/pair_padding.lua", "-n", "9", "--path", "am",
                   "-o", "dtype=long_int", "-o", "count=2100", "--timeout", "120"},
                  180);
  EXPECT_EQ(nine.exit_code, 0) << nine.out << nine.err;
}

// The report's counts of one case of tests/e2e/scripts/datatype_packets.lua.
json packets(const std::string& layout) {
  const std::string dir = e2e::temp_dir("dt-packets-" + layout);
  auto r = run({"run", "tests/e2e/scripts/datatype_packets.lua", "--path", "am", "-o",
                "layout=" + layout, "--report-dir", dir});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return e2e::read_json(dir + "/report.json")["cases"][0]["messages"];
}

TEST(Datatypes, AmDerivedPutCostsTheContiguousPacketsAndShipsItsTypeOnce) {
  const json vec = packets("vector"), flat = packets("contiguous");
  EXPECT_EQ(vec["total"], flat["total"]);
  EXPECT_EQ(vec["by_type"], flat["by_type"]);
  EXPECT_EQ(vec["datatypes"]["descriptions"], 1);
  EXPECT_GT(vec["datatypes"]["description_bytes"].get<int>(), 0);
  EXPECT_EQ(vec["datatypes"]["cache_hits"], 1);
  EXPECT_TRUE(flat["datatypes"].empty());
}

TEST(Datatypes, MisuseIsNamedOnEveryPath) {
  for (const char* path : {"am", "direct"}) {
    const std::string dir = e2e::temp_dir(std::string("dt-misuse-") + path);
    auto r =
        run({"run", "lua_scripts/errors/datatype_misuse.lua", "--path", path, "--report-dir", dir});
    EXPECT_EQ(r.exit_code, 0) << path << ": " << r.out << r.err;
    EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
    EXPECT_TRUE(e2e::leftover_segments(r.pid).empty());
  }
}

}  // namespace
