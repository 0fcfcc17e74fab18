// install_layout.hpp — where this rmabench finds its own parts, relative to its executable
// (/proc/self/exe), so an installed tree can be moved anywhere (docs/install.md):
//
//   installed                          build tree
//   P/bin/rmabench                     build/rmabench
//   P/libexec/rmabench/<mpi workers>   build/<mpi workers>
//   P/share/rmabench/{lua_scripts,suites}   build/share/rmabench/ -> the source tree's
//
// No build or source path is compiled in: the build tree's share/rmabench holds links to the
// sources, made at configure time.
#pragma once

#include <filesystem>

namespace harness {

// The executable this process runs (an MPI worker's own, in a worker).
std::filesystem::path self_exe();

// share/rmabench of this installation or build tree (it holds lua_scripts/ and suites/), or an
// empty path when there is none beside the executable.
std::filesystem::path data_dir();

// Where the per-MPI worker executables are: libexec/rmabench/ of an installation, else the
// executable's own folder (a build tree).
std::filesystem::path libexec_dir();

}  // namespace harness
