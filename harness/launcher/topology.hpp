// topology.hpp — the host as hwloc sees it: a summary for `rmabench info` and for report
// contexts, and binding of rank processes to cores.
#pragma once

#include <sys/types.h>

#include <string>

#include <nlohmann/json.hpp>

struct hwloc_topology;

namespace harness::launcher {

class Topology {
 public:
  Topology();
  ~Topology();
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  // {"packages","cores","pus","numa_nodes","caches":[{"level","type","size_kib","count"}]}
  nlohmann::json summary() const;
  std::string text() const;
  int cores() const;
  // Binds every thread of `pid` to core `index % cores()`; returns "core N" or throws.
  std::string bind_to_core(pid_t pid, int index) const;

 private:
  hwloc_topology* topo_ = nullptr;
};

}  // namespace harness::launcher
