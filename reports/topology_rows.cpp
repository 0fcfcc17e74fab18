// The host's topology as named rows (topology_rows.hpp).
#include "reports/topology_rows.hpp"

#include <array>
#include <string_view>
#include <utility>

#include "reports/text_format.hpp"

namespace reports {

std::vector<TopologyRow> topology_rows(const nlohmann::json& t) {
  std::vector<TopologyRow> rows;
  if (!t.is_object()) return rows;
  constexpr std::array<std::pair<std::string_view, std::string_view>, 4> counts{
      {{"packages", "packages"},
       {"cores", "cores"},
       {"pus", "hardware threads"},
       {"numa_nodes", "NUMA nodes"}}};
  for (const auto& [key, name] : counts)
    if (auto it = t.find(key); it != t.end()) rows.push_back({std::string(name), json_text(*it)});
  if (auto it = t.find("caches"); it != t.end() && it->is_array()) {
    for (const auto& c : *it) {
      if (!c.is_object()) continue;
      rows.push_back({"L" + json_text(c.value("level", nlohmann::json())) + " " +
                          c.value("type", std::string("cache")),
                      json_text(c.value("count", nlohmann::json())) + " \u00d7 " +
                          json_text(c.value("size_kib", nlohmann::json())) + " KiB"});
    }
  }
  for (const auto& [k, v] : t.items()) {
    bool known = k == "caches";
    for (const auto& [key, name] : counts) known |= k == key;
    if (!known) rows.push_back({k, json_text(v)});
  }
  return rows;
}

}  // namespace reports
