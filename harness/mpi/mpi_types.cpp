// mpi_types.cpp — rmabench's datatypes built with MPI's own constructors (mpi_types.hpp).
// A derived type's old types are built first (recursively, uncommitted) and freed once the
// outer type exists, as MPI allows; only the outer type is committed and cached.
#include "mpi/mpi_types.hpp"

#include <array>
#include <climits>
#include <vector>

namespace harness::mpi {

// A table, not a switch: a replay converts the dtype at every call it makes.
MPI_Datatype mpi_dtype(rma::Dtype t) {
  static const std::array<MPI_Datatype, rma::dtype_count> kDtypes = {
      MPI_INT8_T,   MPI_INT16_T,   MPI_INT32_T,  MPI_INT64_T,   MPI_UINT8_T,
      MPI_UINT16_T, MPI_UINT32_T,  MPI_UINT64_T, MPI_FLOAT,     MPI_DOUBLE,
      MPI_2INT,     MPI_SHORT_INT, MPI_LONG_INT, MPI_FLOAT_INT, MPI_DOUBLE_INT};  // Dtype's order
  const auto i = static_cast<std::size_t>(t);
  return i < kDtypes.size() ? kDtypes[i] : MPI_DATATYPE_NULL;
}

namespace {

using Code = rma::Datatype::Code;

// The lists inside a constructor's arguments (length, then values), from position `i`.
// A count, a blocklength or an element displacement as MPI's int; `wide` if it is not one.
int as_int(std::int64_t x, bool& wide) {
  if (x > INT_MAX || x < INT_MIN) wide = true;
  return static_cast<int>(x);
}
std::vector<int> ints(const std::vector<std::int64_t>& a, std::size_t& i, bool& wide) {
  const auto n = static_cast<std::size_t>(a[i++]);
  std::vector<int> v;
  for (std::size_t k = 0; k < n; ++k) v.push_back(as_int(a[i++], wide));
  return v;
}
std::vector<MPI_Aint> aints(const std::vector<std::int64_t>& a, std::size_t& i) {
  const auto n = static_cast<std::size_t>(a[i++]);
  std::vector<MPI_Aint> v;
  for (std::size_t k = 0; k < n; ++k) v.push_back(static_cast<MPI_Aint>(a[i++]));
  return v;
}

}  // namespace

MpiTypes::Built MpiTypes::get(const rma::TypeRef& t) {
  if (t->is_basic()) return {mpi_dtype(*t->basic_type()), MPI_SUCCESS, ""};
  if (auto it = built_.find(t.get()); it != built_.end()) return {it->second.second};
  Built b = build(*t);
  if (b.rc != MPI_SUCCESS) return b;
  b.call = "MPI_Type_commit";
  b.rc = MPI_Type_commit(&b.type);
  if (b.rc != MPI_SUCCESS) return b;
  built_.emplace(t.get(), std::make_pair(t, b.type));
  return b;
}

MpiTypes::Built MpiTypes::build(const rma::Datatype& t) {
  if (t.is_basic()) return {mpi_dtype(*t.basic_type()), MPI_SUCCESS, ""};
  const auto& a = t.args();
  bool wide = false;  // an argument MPI takes as an int is beyond one
  // The old types, built uncommitted; freed once the new type holds them.
  std::vector<MPI_Datatype> old;
  auto release = [&] {
    for (std::size_t k = 0; k < old.size(); ++k)
      if (!t.kids()[k]->is_basic()) MPI_Type_free(&old[k]);
  };
  for (const rma::TypeRef& k : t.kids()) {
    Built b = build(*k);
    if (b.rc != MPI_SUCCESS) {
      release();
      return b;
    }
    old.push_back(b.type);
  }
  Built r;
  std::size_t i = 0;
  auto I = [&](std::size_t k) { return as_int(a[k], wide); };
  switch (t.code()) {
    case Code::contiguous:
      r.call = "MPI_Type_contiguous";
      r.rc = MPI_Type_contiguous(I(0), old[0], &r.type);
      break;
    case Code::vector:
      r.call = "MPI_Type_vector";
      r.rc = MPI_Type_vector(I(0), I(1), I(2), old[0], &r.type);
      break;
    case Code::hvector:
      r.call = "MPI_Type_create_hvector";
      r.rc = MPI_Type_create_hvector(I(0), I(1), static_cast<MPI_Aint>(a[2]), old[0], &r.type);
      break;
    case Code::indexed: {
      const auto bl = ints(a, i, wide), d = ints(a, i, wide);
      r.call = "MPI_Type_indexed";
      r.rc = MPI_Type_indexed(static_cast<int>(bl.size()), bl.data(), d.data(), old[0], &r.type);
      break;
    }
    case Code::hindexed: {
      const auto bl = ints(a, i, wide);
      const auto d = aints(a, i);
      r.call = "MPI_Type_create_hindexed";
      r.rc = MPI_Type_create_hindexed(static_cast<int>(bl.size()), bl.data(), d.data(), old[0],
                                      &r.type);
      break;
    }
    case Code::indexed_block: {
      i = 1;
      const auto d = ints(a, i, wide);
      r.call = "MPI_Type_create_indexed_block";
      r.rc = MPI_Type_create_indexed_block(static_cast<int>(d.size()), I(0), d.data(), old[0],
                                           &r.type);
      break;
    }
    case Code::hindexed_block: {
      i = 1;
      const auto d = aints(a, i);
      r.call = "MPI_Type_create_hindexed_block";
      r.rc = MPI_Type_create_hindexed_block(static_cast<int>(d.size()), I(0), d.data(), old[0],
                                            &r.type);
      break;
    }
    case Code::subarray: {
      i = 1;
      const auto sizes = ints(a, i, wide), sub = ints(a, i, wide), starts = ints(a, i, wide);
      r.call = "MPI_Type_create_subarray";
      r.rc = MPI_Type_create_subarray(static_cast<int>(sizes.size()), sizes.data(), sub.data(),
                                      starts.data(), a[0] == 0 ? MPI_ORDER_C : MPI_ORDER_FORTRAN,
                                      old[0], &r.type);
      break;
    }
    case Code::struct_: {
      const auto bl = ints(a, i, wide);
      const auto d = aints(a, i);
      r.call = "MPI_Type_create_struct";
      r.rc = MPI_Type_create_struct(static_cast<int>(bl.size()), bl.data(), d.data(), old.data(),
                                    &r.type);
      break;
    }
    case Code::resized:
      r.call = "MPI_Type_create_resized";
      r.rc = MPI_Type_create_resized(old[0], static_cast<MPI_Aint>(a[0]),
                                     static_cast<MPI_Aint>(a[1]), &r.type);
      break;
    case Code::basic:
      break;
  }
  release();
  if (wide && r.rc == MPI_SUCCESS) {  // built from truncated arguments: not the type asked for
    MPI_Type_free(&r.type);
    return {MPI_DATATYPE_NULL, MPI_ERR_COUNT, r.call};
  }
  return r;
}

void MpiTypes::free_all() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    for (auto& [k, v] : built_) MPI_Type_free(&v.second);
  built_.clear();
}

}  // namespace harness::mpi
