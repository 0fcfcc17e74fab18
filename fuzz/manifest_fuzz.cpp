// manifest_fuzz — the suite manifest loader (harness/suite/manifest.*): any text given as a
// manifest is either expanded into cases or refused with a UsageError (or a Lua error turned
// into one) naming the file; never a crash. The manifest is written into a scratch folder
// that holds a link to the project's lua_scripts/, so seeds can name real scripts
// (scripts_dir = "lua_scripts").
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "suite/manifest.hpp"

namespace fs = std::filesystem;

namespace {

const std::string& scratch() {
  static const std::string dir = [] {
    fs::path d =
        fs::temp_directory_path() / ("rmabench-manifest-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(d);
    std::error_code ec;
    fs::create_directory_symlink(fs::path(RMABENCH_SOURCE_DIR) / "lua_scripts", d / "lua_scripts",
                                 ec);
    return d.string();
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = scratch() + "/suite.lua";
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    (void)harness::suite::expand(path, harness::suite::Overrides{});
  } catch (const std::exception&) {
    // UsageError and friends: the CLI prints them and exits 2.
  }
  return 0;
}
