// mpi_impl.hpp — an MPI library (MPICH, Open MPI, a user's own) as the
// implementation under test: every call of call/call.hpp onto the MPI-3 call of the same name.
//
// Only the MPI worker executables compile this (one per MPI, with that MPI's compiler
// flags: mpi.cmake); the rmabench executable never includes <mpi.h>. Windows and the
// job use MPI_ERRORS_RETURN, and a failing call is an rma::Status whose class comes from
// MPI_Error_class and whose message carries MPI_Error_string. Packet counts are not
// observable inside a library: counters() is nullopt. state() is answered from what this
// class records around each MPI call (never by calling MPI from the control thread).
// The code is split by topic: mpi_impl.cpp (name maps, the execute switch),
// mpi_impl_window.cpp (windows, requests), mpi_impl_state.cpp (epochs, state, start and end),
// mpi_impl_plain.cpp (the plain-C loops of mpi_plain_loop.h, on a window and a communicator
// of their own, which also return errors).
#pragma once

#include <memory>
#include <string>

#include "impl/implementation.hpp"

namespace harness::mpi {

struct MpiOptions {
  // MPI_THREAD_MULTIPLE (needed by MPICH's asynchronous progress thread); else
  // MPI_THREAD_SERIALIZED, enough for a main thread that alone calls MPI.
  bool thread_multiple = false;
  // Open MPI's one-sided component as chosen on the launcher's command line ("" when the
  // library chose): part of name(), "openmpi 4.1.4 osc=sm".
  std::string osc;
};

// Initializes MPI (MPI_Init_thread, unless already done) and returns this rank's
// implementation. Errors: the thread level could not be provided, or MPI failed to start.
rma::Result<std::unique_ptr<impl::Implementation>> make_mpi_implementation(
    const MpiOptions& options);

// Frees the windows still open and calls MPI_Finalize (collective: every rank calls it).
rma::Status finalize_mpi(impl::Implementation& impl);

// "mpich 4.0.2", "openmpi 4.1.4", or the first line of the library's version string: what
// MPI_Get_library_version says, in the report's spelling. Callable before MPI_Init.
std::string mpi_library_name();

// The implementation's name as cases report it: mpi_library_name(), with " osc=NAME" when
// Open MPI's one-sided component was chosen ("openmpi 4.1.4 osc=sm"). Callable before MPI_Init.
std::string mpi_impl_name(const std::string& osc);

}  // namespace harness::mpi
