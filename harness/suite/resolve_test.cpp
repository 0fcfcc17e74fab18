// Suites and patterns by name: RMABENCH_PATH's directories before the build tree's
// share/rmabench (which links to the sources), a file as itself, and an unknown name a
// usage error naming the nearest one by the harness's one rule.
#include "suite/resolve.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "suite/usage_error.hpp"

namespace harness::suite {
namespace {

namespace fs = std::filesystem;

class Resolve : public ::testing::Test {
 protected:
  Resolve() {
    fs::create_directories(mine_ / "suites");
    fs::create_directories(mine_ / "lua_scripts/group");
    for (const char* f : {"quick.lua", "suites/own_suite.lua", "lua_scripts/group/own.lua"})
      std::ofstream(mine_ / f) << "return {}\n";
    ::setenv("RMABENCH_PATH", ("/nonexistent:" + mine_.string()).c_str(), 1);
  }
  ~Resolve() override {
    ::unsetenv("RMABENCH_PATH");
    fs::remove_all(mine_);
  }
  static std::string error_of(const std::string& name) {
    try {
      resolve_input(name);
    } catch (const UsageError& e) {
      return e.what();
    }
    return "";
  }
  fs::path mine_ = fs::temp_directory_path() / ("resolve_test." + std::to_string(::getpid()));
};

TEST_F(Resolve, UsersDirectoriesComeFirst) {
  EXPECT_EQ(resolve_input("quick"), (mine_ / "quick.lua").string());
  EXPECT_EQ(resolve_input("own_suite"), (mine_ / "suites/own_suite.lua").string());
  EXPECT_EQ(resolve_input("group/own.lua"), (mine_ / "lua_scripts/group/own.lua").string());
}

TEST_F(Resolve, ThenTheInstalledSuitesAndPatterns) {
  const std::string conformance = resolve_input("conformance");
  EXPECT_TRUE(conformance.ends_with("share/rmabench/suites/conformance.lua")) << conformance;
  const std::string pattern = resolve_input("passive/lock_put_unlock");
  EXPECT_TRUE(pattern.ends_with("lua_scripts/passive/lock_put_unlock.lua")) << pattern;
  EXPECT_TRUE(fs::is_regular_file(pattern));
}

TEST_F(Resolve, AFileIsItself) {
  const std::string file = (mine_ / "quick.lua").string();
  EXPECT_EQ(resolve_input(file), file);
}

TEST_F(Resolve, AnUnknownNameNamesTheNearest) {
  EXPECT_NE(error_of("own_suit").find("did you mean 'own_suite'?"), std::string::npos)
      << error_of("own_suit");
  // A misspelt pattern, with or without its folder.
  EXPECT_NE(error_of("passive/lock_put_unlok").find("did you mean 'passive/lock_put_unlock'?"),
            std::string::npos);
  EXPECT_NE(error_of("lock_put_unlok").find("did you mean 'passive/lock_put_unlock'?"),
            std::string::npos);
  // Nothing near: the suites and pattern folders.
  const std::string far = error_of("zzzzzzzzzz");
  EXPECT_NE(far.find("'zzzzzzzzzz' is no file"), std::string::npos) << far;
  EXPECT_NE(far.find("passive/"), std::string::npos) << far;
  // A name does not climb out of the searched directories.
  EXPECT_NE(error_of("../suites/quick").find("no such file"), std::string::npos);
}

TEST_F(Resolve, TheCatalogListsSuitesAndPatternFolders) {
  std::ostringstream out;
  print_catalog(out);
  EXPECT_NE(out.str().find(mine_.string()), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("suites: own_suite"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("passive/ ("), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("lib/"), std::string::npos) << out.str();  // modules, no patterns
}

}  // namespace
}  // namespace harness::suite
