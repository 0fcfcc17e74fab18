// mpi_catalog.hpp — the MPI libraries this build of rmabench can test (`--impl <name>`), and
// for each one that is missing, why. harness/mpi/mpi.cmake writes the list at configure time: one
// worker executable per MPI, in libexec_dir() (install_layout.hpp), started through that MPI's
// launcher.
#pragma once

#include <string>
#include <vector>

namespace harness::mpi {

struct MpiBuild {
  std::string name;  // "mpich", "openmpi", or a user's own (RMABENCH_MPI_CUSTOM)
  bool built = false;
  std::string wrapper;        // the compiler wrapper the worker was built with
  std::string launcher;       // mpiexec / mpirun of the same MPI
  std::string launcher_kind;  // hydra | openmpi | generic: how it takes rank environment
  std::string worker;         // worker file name, in libexec_dir() (install_layout.hpp)
  std::string missing;        // why it is not built ("" when built)
};

const std::vector<MpiBuild>& mpi_builds();
// The entry named `name`, or null.
const MpiBuild* find_mpi_build(const std::string& name);

}  // namespace harness::mpi
