// Differential random programs (lua_scripts/random/programs.lua): a fixed seed passes on both
// paths of shm and on 2 to 4 ranks; a deliberate fault (RMA_FAULT, rma_impl/core/fault.hpp)
// is found, named by seed, program and first differing byte, and the shrinker writes a
// script of at most 20 RMA calls that fails under the fault and passes without it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "run_rmabench.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class RandomPrograms : public ::testing::TestWithParam<std::tuple<const char*, int>> {};

TEST_P(RandomPrograms, FixedSeedPasses) {
  const auto& [path, ranks] = GetParam();
  const std::string dir = e2e::temp_dir("random-" + std::string(path));
  auto r = e2e::run(
      {"run", "lua_scripts/random/programs.lua", "--path", path, "-n", std::to_string(ranks), "-o",
       "seed=11", "-o", "programs=40", "--timeout", "120", "--report-dir", dir, "--format", "json"},
      240);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(e2e::leftover_ranks(r.pid).empty());
  EXPECT_TRUE(e2e::leftover_segments(r.pid).empty());
}

INSTANTIATE_TEST_SUITE_P(Shm, RandomPrograms,
                         ::testing::Combine(::testing::Values("am", "direct"),
                                            ::testing::Values(2, 3, 4)),
                         [](const auto& p) {
                           return std::string(std::get<0>(p.param)) + "_np" +
                                  std::to_string(std::get<1>(p.param));
                         });

std::string read_text(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

class RandomFault : public ::testing::TestWithParam<const char*> {};

TEST_P(RandomFault, FoundAndShrunkToARegressionScript) {
  const std::string fault = GetParam();
  const fs::path dir = e2e::temp_dir("random-fault-" + fault);
  // The written script finds lua_scripts/lib/ beside its own folder, as in lua_scripts/.
  fs::create_directories(dir / "regressions");
  fs::create_directory_symlink(fs::path(e2e::source_dir()) / "lua_scripts" / "lib", dir / "lib");
  const fs::path script = dir / "regressions" / "shrunk.lua";
  auto r =
      e2e::run({"run", "lua_scripts/random/programs.lua", "-o", "seed=3", "-o", "programs=1000",
                "-o", "shrink=true", "-o", "out=" + script.string(), "--timeout", "300",
                "--report-dir", (dir / "run").string(), "--format", "json"},
               400, {"RMA_FAULT=" + fault});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const json report = e2e::read_json((dir / "run" / "report.json").string());
  const std::string text = report["cases"][0].dump();
  EXPECT_NE(text.find("seed 3 program "), std::string::npos) << text;
  // The first difference: a window byte, or an element an op fetched.
  EXPECT_TRUE(text.find("byte offset") != std::string::npos ||
              text.find("result element") != std::string::npos ||
              text.find("fetched") != std::string::npos)
      << text;
  std::smatch m;
  const std::regex shrunk("shrunk to ([0-9]+) RMA calls");
  ASSERT_TRUE(std::regex_search(text, m, shrunk)) << text;
  EXPECT_LE(std::stoi(m[1]), 20);
  ASSERT_TRUE(fs::exists(script));
  EXPECT_NE(read_text(script).find("require(\"random_program\").case("), std::string::npos);

  auto again = e2e::run(
      {"run", script.string(), "--timeout", "60", "--report-dir", (dir / "again").string()}, 120,
      {"RMA_FAULT=" + fault});
  EXPECT_EQ(again.exit_code, 1) << again.out << again.err;
  auto clean = e2e::run(
      {"run", script.string(), "--timeout", "60", "--report-dir", (dir / "clean").string()}, 120);
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
}

INSTANTIATE_TEST_SUITE_P(Rma, RandomFault, ::testing::Values("put_short", "accumulate_wrong_op"));

}  // namespace
