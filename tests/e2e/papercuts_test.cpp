// End-to-end: what a new pattern writer trips over (issue 40) — names checked with the line
// and the nearest name, the report's words and topology, --format +html, rma.log in every
// human-readable report, several inputs in one run, and the tutorial's halo pattern.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "run_rmabench.hpp"

namespace {

using e2e::run;
using nlohmann::json;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string failures_text(const json& c) {
  std::string all;
  for (const auto& f : c["failures"])
    all += f.value("where", "") + ": " + f.value("message", "") + "\n";
  return all;
}

TEST(Papercuts, AMisspeltOpNamesItsLineAndTheNearestOp) {
  const std::string dir = e2e::temp_dir("summ");
  auto r = run({"run", "tests/e2e/scripts/misspelt_op.lua", "--report-dir", dir});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const json c = e2e::read_json(dir + "/report.json")["cases"][0];
  EXPECT_EQ(c["status"], "error");
  const std::string f = failures_text(c);
  EXPECT_NE(f.find("tests/e2e/scripts/misspelt_op.lua:7"), std::string::npos) << f;
  EXPECT_NE(f.find("unknown op 'summ' (did you mean 'sum'?)"), std::string::npos) << f;
  EXPECT_NE(f.find("OP"), std::string::npos) << f;  // MPI's class stays
}

TEST(Papercuts, AMisspeltPacketTypeFromAMessagesFunctionNamesItsLine) {
  const std::string dir = e2e::temp_dir("fetch_op");
  auto r = run({"run", "tests/e2e/scripts/messages_fetch_op.lua", "--report-dir", dir});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const json c = e2e::read_json(dir + "/report.json")["cases"][0];
  EXPECT_EQ(c["status"], "error");
  const std::string f = failures_text(c);
  EXPECT_NE(f.find("tests/e2e/scripts/messages_fetch_op.lua:6: "), std::string::npos) << f;
  EXPECT_NE(f.find("did you mean 'fetch_and_op'?"), std::string::npos) << f;
}

TEST(Papercuts, HtmlSaysDeclaredAndShowsTheTopologyAsATable) {
  const std::string dir = e2e::temp_dir("declared");
  auto r = run(
      {"run", "lua_scripts/passive/lock_put_unlock.lua", "--report-dir", dir, "--format", "+html"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // +html adds to the default: every default file is there too.
  for (const char* f : {"report.json", "junit.xml", "report.md", "report.html"})
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + f)) << f;
  const std::string html = slurp(dir + "/report.html");
  EXPECT_NE(html.find("<th>declared</th>"), std::string::npos);
  EXPECT_EQ(html.find("minimum"), std::string::npos);
  const auto t = html.find("<table class=\"topology\">");
  ASSERT_NE(t, std::string::npos);
  const std::string topo = html.substr(t, html.find("</table>", t) - t);
  EXPECT_NE(topo.find("<tr><th>cores</th>"), std::string::npos) << topo;
  EXPECT_NE(topo.find("<tr><th>NUMA nodes</th>"), std::string::npos) << topo;
  EXPECT_NE(topo.find("<tr><th>binding</th>"), std::string::npos) << topo;
  EXPECT_EQ(topo.find("{"), std::string::npos) << topo;
  EXPECT_EQ(topo.find("\"level\""), std::string::npos) << topo;
  const std::string md = slurp(dir + "/report.md");
  EXPECT_NE(md.find("| messages | declared |"), std::string::npos) << md;
}

TEST(Papercuts, APlainFormatListReplacesTheDefaultAndMixingIsAUsageError) {
  const std::string dir = e2e::temp_dir("formats");
  auto r = run({"run", "lua_scripts/examples/hello.lua", "-n", "1", "--report-dir", dir, "--format",
                "html"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir + "/report.html"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/report.md"));
  auto mixed = run({"run", "lua_scripts/examples/hello.lua", "--format", "json,+html"});
  EXPECT_EQ(mixed.exit_code, 2) << mixed.out << mixed.err;
  EXPECT_NE(mixed.err.find("--format"), std::string::npos) << mixed.err;
}

TEST(Papercuts, RmaLogReachesConsoleMarkdownAndHtml) {
  const std::string dir = e2e::temp_dir("log");
  auto r = run({"run", "tests/e2e/scripts/log_in_check.lua", "-v", "--report-dir", dir, "--format",
                "+html"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("rank 0: x marks the spot"), std::string::npos) << r.out << r.err;
  EXPECT_NE(slurp(dir + "/report.md").find("x marks the spot"), std::string::npos);
  EXPECT_NE(slurp(dir + "/report.html").find("x marks the spot"), std::string::npos);
}

// A filter copied from an MPI run's output selects that case: on an MPI it matches the ids
// the run prints, not the reference's ids the suite expands to first.
TEST(Papercuts, AFilterOnAnMpiRunMatchesTheIdsThatRunPrints) {
  const std::vector<std::string> mpis = e2e::built_mpis();
  if (mpis.empty()) GTEST_SKIP() << "no MPI worker built (ci/setup.sh --with-extras installs both)";
  const std::string& m = mpis.front();
  const auto r = run({"run", "suites/quick.lua", "--impl", m, "--filter",
                      "passive/lock_put_unlock[impl=" + m + ",np=2,progress=calls,size=8]"},
                     300);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("1 passed, 0 failed"), std::string::npos) << r.out;
  const auto none = run({"run", "suites/quick.lua", "--impl", m, "--filter", "[shm,am,np=2]"});
  EXPECT_EQ(none.exit_code, 2) << none.out << none.err;
  EXPECT_NE(none.err.find("no case to run matches --filter"), std::string::npos) << none.err;
}

TEST(Papercuts, SeveralInputsRunInOneReportInTheOrderGiven) {
  const std::string alone = e2e::temp_dir("alone");
  auto a = run({"run", "lua_scripts/passive/lock_put_unlock.lua", "--report-dir", alone});
  ASSERT_EQ(a.exit_code, 0) << a.out << a.err;
  const std::string dir = e2e::temp_dir("several");
  auto r = run({"run", "lua_scripts/examples/hello.lua", "lua_scripts/passive/lock_put_unlock.lua",
                "--report-dir", dir});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json cases = e2e::read_json(dir + "/report.json")["cases"];
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0]["script"], "lua_scripts/examples/hello.lua");
  // The ids are the ones each input has alone.
  EXPECT_EQ(cases[1]["id"], e2e::read_json(alone + "/report.json")["cases"][0]["id"]);
  EXPECT_NE(r.out.find("2 passed, 0 failed"), std::string::npos) << r.out;
  // One case twice would be two results of one id, which no gate can pair.
  auto twice = run({"run", "lua_scripts/examples/hello.lua", "lua_scripts/examples/hello.lua"});
  EXPECT_EQ(twice.exit_code, 2) << twice.out << twice.err;
  EXPECT_NE(twice.err.find("is already in the run"), std::string::npos) << twice.err;

  // An option one of the inputs declares is for that one; one that none declares is refused.
  const std::string opt = e2e::temp_dir("several-o");
  auto o = run({"run", "lua_scripts/examples/hello.lua", "lua_scripts/passive/lock_put_unlock.lua",
                "-o", "size=16", "--report-dir", opt});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json with_o = e2e::read_json(opt + "/report.json")["cases"];
  ASSERT_EQ(with_o.size(), 2u);
  EXPECT_EQ(with_o[0]["options"], json::object()) << with_o[0].dump();
  EXPECT_EQ(with_o[1]["options"]["size"], "16") << with_o[1].dump();
  auto typo = run({"run", "lua_scripts/examples/hello.lua",
                   "lua_scripts/passive/lock_put_unlock.lua", "-o", "sise=16"});
  EXPECT_EQ(typo.exit_code, 2) << typo.out << typo.err;
  EXPECT_NE(typo.err.find("option 'sise' is not declared by any script of the run's inputs "
                          "(declared: bytes size)"),
            std::string::npos)
      << typo.err;

  auto b = run({"bench", "lua_scripts/examples/hello.lua", "lua_scripts/examples/halo.lua",
                "--min-time", "0.01"},
               300);
  EXPECT_NE(b.exit_code, 2) << b.out << b.err;
  EXPECT_NE(b.out.find("examples/halo"), std::string::npos) << b.out;
}

TEST(Papercuts, TheTutorialHaloPassesRepeatedAndUnderBench) {
  auto r = run({"run", "lua_scripts/examples/halo.lua", "-o", "cells=4"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("msgs 10"), std::string::npos) << r.out;
  const std::string dir = e2e::temp_dir("halo3");
  // iterations = 3 through a copy of the script (the case table's field, not an option),
  // beside a copy of lib/ (a script finds it at ../lib).
  const std::string copy = dir + "/examples/halo.lua";
  std::filesystem::create_directories(dir + "/examples");
  std::filesystem::create_directories(dir + "/lib");
  std::filesystem::copy_file(e2e::source_dir() + "/lua_scripts/lib/counts.lua",
                             dir + "/lib/counts.lua");
  std::string text = slurp(e2e::source_dir() + "/lua_scripts/examples/halo.lua");
  const std::string ranks = "  ranks = 4,";
  ASSERT_NE(text.find(ranks), std::string::npos);
  text.replace(text.find(ranks), ranks.size(), ranks + "\n  iterations = 3,");
  std::ofstream(copy) << text;
  auto it = run({"run", copy, "--report-dir", dir});
  ASSERT_EQ(it.exit_code, 0) << it.out << it.err;
  EXPECT_EQ(e2e::read_json(dir + "/report.json")["cases"][0]["messages"]["total"], 10);
  auto b = run({"bench", "lua_scripts/examples/halo.lua", "--min-time", "0.01"}, 300);
  ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
}

}  // namespace
