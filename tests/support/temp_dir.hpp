// temp_dir.hpp — the tests' one temporary folder: a fresh directory under the system's temp
// path, removed with everything in it when it goes out of scope. Unit and end-to-end tests
// share it, so none leaves files in /tmp and no two runs of a test program collide.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace test_support {

class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("rmabench-" + tag + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data()))
      throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;  // a test that failed midway may have left it half-removed
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Writes `body` to path()/name, making folders as needed; returns the file's path.
  std::string write(const std::string& name, const std::string& body) const {
    const std::filesystem::path p = path_ / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << body;
    return p.string();
  }

 private:
  std::filesystem::path path_;
};

// One folder for the whole test program, removed when it exits: for helpers that hand out
// paths a test keeps using.
inline const TempDir& program_temp_dir() {
  static const TempDir dir("test");
  return dir;
}

}  // namespace test_support
