// fabric_api.hpp — libfabric's exported entry points, loaded on first use.
//
// Debian's libfabric pulls in the PSM libraries, whose constructors probe for InfiniPath
// hardware for about a quarter of a second in every process that links them. rmabench starts
// a process per rank per case, so it loads libfabric only when the fabric backend (or
// `rmabench info`) needs it. Everything else in libfabric's API is reached through the
// ops tables of the objects these functions return, so this is the whole list.
#pragma once

#include <rdma/fabric.h>

#include <cstdint>
#include <string>

#include "rma/status.hpp"

namespace rma::fabric {

// The interface version rmabench is written against (Debian 12 ships 1.17).
inline constexpr std::uint32_t kApiVersion = FI_VERSION(1, 17);

struct Api {
  int (*getinfo)(uint32_t, const char*, const char*, uint64_t, const fi_info*, fi_info**);
  void (*freeinfo)(fi_info*);
  fi_info* (*dupinfo)(const fi_info*);
  int (*fabric)(fi_fabric_attr*, fid_fabric**, void*);
  const char* (*strerror)(int);
  char* (*tostr)(const void*, enum fi_type);
};

// The loaded API, or UNSUPPORTED with dlopen's reason.
Result<const Api*> api();

// "fi_getinfo: No data available (-61)" for a libfabric return code.
std::string error_text(const char* call, int rc);

}  // namespace rma::fabric
