// install_layout.cpp — the parts of this rmabench found from its executable (see the header).
#include "install_layout.hpp"

#include <stdexcept>

namespace harness {

namespace fs = std::filesystem;

fs::path self_exe() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the rmabench executable: " + ec.message());
  return p;
}

fs::path data_dir() {
  std::error_code ec;
  const fs::path bin = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (ec) return {};
  // bin/rmabench, libexec/rmabench/<worker>, then a build tree's own share/.
  for (const fs::path& d :
       {bin / "../share/rmabench", bin / "../../share/rmabench", bin / "share/rmabench"}) {
    if (fs::is_directory(d / "lua_scripts", ec)) return d.lexically_normal();
  }
  return {};
}

fs::path libexec_dir() {
  const fs::path bin = self_exe().parent_path();
  const fs::path installed = (bin / "../libexec/rmabench").lexically_normal();
  std::error_code ec;
  return fs::is_directory(installed, ec) ? installed : bin;
}

}  // namespace harness
