#include "launcher/topology.hpp"

#include <hwloc.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace harness::launcher {

Topology::Topology() {
  if (hwloc_topology_init(&topo_) != 0 || hwloc_topology_load(topo_) != 0)
    throw std::runtime_error("hwloc: cannot load the host topology");
}

Topology::~Topology() {
  if (topo_) hwloc_topology_destroy(topo_);
}

int Topology::cores() const {
  int n = hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_CORE);
  return n > 0 ? n : 1;
}

nlohmann::json Topology::summary() const {
  nlohmann::json caches = nlohmann::json::array();
  const hwloc_obj_type_t cache_types[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
                                          HWLOC_OBJ_L4CACHE};
  for (hwloc_obj_type_t t : cache_types) {
    const int n = hwloc_get_nbobjs_by_type(topo_, t);
    if (n <= 0) continue;
    hwloc_obj_t o = hwloc_get_obj_by_type(topo_, t, 0);
    const char* kind = o->attr->cache.type == HWLOC_OBJ_CACHE_DATA          ? "data"
                       : o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION ? "instruction"
                                                                            : "unified";
    caches.push_back({{"level", o->attr->cache.depth},
                      {"type", kind},
                      {"size_kib", o->attr->cache.size / 1024},
                      {"count", n}});
  }
  return {{"packages", hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_PACKAGE)},
          {"cores", hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_CORE)},
          {"pus", hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_PU)},
          {"numa_nodes", hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_NUMANODE)},
          {"caches", caches}};
}

std::string Topology::text() const {
  const auto s = summary();
  std::ostringstream out;
  out << "packages " << s["packages"] << ", cores " << s["cores"] << ", PUs " << s["pus"]
      << ", NUMA nodes " << s["numa_nodes"] << "\n";
  for (const auto& c : s["caches"])
    out << "  L" << c["level"] << " " << c["type"].get<std::string>() << ": " << c["count"] << " x "
        << c["size_kib"] << " KiB\n";
  return out.str();
}

std::string Topology::bind_to_core(pid_t pid, int index) const {
  const int n = cores();
  hwloc_obj_t core = hwloc_get_obj_by_type(topo_, HWLOC_OBJ_CORE, static_cast<unsigned>(index % n));
  if (!core) throw std::runtime_error("hwloc: no core " + std::to_string(index % n));
  if (hwloc_set_proc_cpubind(topo_, pid, core->cpuset, HWLOC_CPUBIND_PROCESS) != 0)
    throw std::runtime_error("hwloc: cannot bind pid " + std::to_string(pid) + ": " +
                             std::strerror(errno));
  return "core " + std::to_string(core->logical_index);
}

}  // namespace harness::launcher
