// impl_list.hpp — `rmabench bench --impl ref,mpich,openmpi:osc=sm`: the implementations a
// bench run measures side by side, each spelt as `--impl` takes it alone (the pinned `ref`,
// `mpich`, `openmpi`, with `:key=value` options). Words after a `:` option that hold a `=`
// but no `:` continue that option list ("openmpi:osc=sm,x=y"). `--mpi-arg` and `--mpi-env`
// apply to every MPI in the list, or, written `NAME:...` with NAME an MPI of the list
// (`--mpi-env mpich:MPIR_CVAR_ASYNC_PROGRESS=1`), to that MPI only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mpi/mpi_launch.hpp"

namespace harness::cli {

// The spellings of a list, in order; suite::UsageError when one is empty or listed twice.
std::vector<std::string> split_impl_list(const std::string& value);

// What --mpi-arg / --mpi-env values apply to the MPI `mpi_name`, with any `NAME:` scope that
// names an MPI of `listed` removed.
std::vector<std::string> scoped_values(const std::vector<std::string>& values,
                                       const std::string& mpi_name,
                                       const std::vector<std::string>& listed);

struct ImplChoice {
  std::string spelling;               // "ref", "openmpi:osc=sm"
  std::optional<mpi::MpiLaunch> mpi;  // nullopt for the reference
};

// Each implementation of the list, an MPI resolved with its own launcher words and
// environment (mpi::mpi_for_run); UsageError as mpi_for_run, or when --mpi-arg/--mpi-env
// are given and no MPI is listed.
std::vector<ImplChoice> resolve_impl_list(const std::string& value,
                                          const std::vector<std::string>& mpi_args,
                                          const std::vector<std::string>& mpi_env,
                                          const mpi::StartOptions& start = {});

}  // namespace harness::cli
