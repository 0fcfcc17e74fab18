// reports/topology_rows.hpp — the host's topology (a report's context.topology, hwloc's
// summary) as the rows a reader asks about: packages, cores, hardware threads, NUMA nodes,
// each cache level ("L1 data" -> "2 × 48 KiB"). The HTML table and the Markdown line are
// built from these, so both say the same and neither shows raw JSON.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace reports {

struct TopologyRow {
  std::string name;
  std::string value;
};

// Known entries first, in that order; any other key after them as its JSON text.
std::vector<TopologyRow> topology_rows(const nlohmann::json& topology);

}  // namespace reports
