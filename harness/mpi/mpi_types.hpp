// mpi_types.hpp — rmabench's datatypes as an MPI library's: the basic dtypes as MPI's
// predefined types, and each derived type (rma/datatype.hpp) rebuilt with the MPI
// constructor it was made with (MPI_Type_vector for type_vector, and so on), committed once
// and kept while the implementation lives. Compiled per MPI, with that MPI's <mpi.h>.
#pragma once

#include <mpi.h>

#include <map>
#include <utility>

#include "rma/datatype.hpp"
#include "rma/status.hpp"

namespace harness::mpi {

MPI_Datatype mpi_dtype(rma::Dtype t);

class MpiTypes {
 public:
  MpiTypes() = default;
  MpiTypes(const MpiTypes&) = delete;
  MpiTypes& operator=(const MpiTypes&) = delete;
  ~MpiTypes() { free_all(); }

  // The committed MPI type for `t` (a predefined one for a basic type). The MPI call that
  // failed, with its error code, otherwise.
  struct Built {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    int rc = MPI_SUCCESS;
    const char* call = "";
  };
  Built get(const rma::TypeRef& t);
  // MPI_Type_free of every type built; call before MPI_Finalize.
  void free_all();

 private:
  Built build(const rma::Datatype& t);
  // The type kept alive so its address stays its key.
  std::map<const rma::Datatype*, std::pair<rma::TypeRef, MPI_Datatype>> built_;
};

}  // namespace harness::mpi
