#include "suite/case_spec.hpp"

namespace harness::suite {

std::string make_case_id(const CaseSpec& c) {
  std::string id = c.suite.empty() ? c.stem : c.suite + "/" + c.stem;
  if (c.impl != "ref") {
    // Backend and path are the reference's; an MPI library is named instead.
    // Progress always: a library's default is calls, not the reference's async.
    id += "[impl=" + c.impl + ",np=" + std::to_string(c.ranks) + ",progress=" + c.progress;
    for (const auto& [k, v] : c.options) id += "," + k + "=" + v;
    return id + "]";
  }
  id += "[" + c.backend;
  // A provider is the fabric's: a shm case of a run given one is the same case as without.
  if (c.backend == "fabric" && !c.provider.empty()) id += ":" + c.provider;
  id += "," + c.path + ",np=" + std::to_string(c.ranks);
  if (c.progress != "async") id += ",progress=" + c.progress;
  if (c.protocol_in_id) id += ",protocol=" + c.protocol;
  for (const auto& [k, v] : c.options) id += "," + k + "=" + v;
  return id + "]";
}

std::vector<std::string> case_protocols(const CaseSpec& c) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t plus = c.protocol.find('+', from);
    out.push_back(c.protocol.substr(from, plus == std::string::npos ? plus : plus - from));
    if (plus == std::string::npos) return out;
    from = plus + 1;
  }
}

nlohmann::json to_json(const CaseSpec& c) {
  return {{"id", c.id},
          {"suite", c.suite},
          {"script", c.script},
          {"stem", c.stem},
          {"ranks", c.ranks},
          {"backend", c.backend},
          {"path", c.path},
          {"progress", c.progress},
          {"protocol", c.protocol},
          {"provider", c.provider},
          {"options", c.options},
          {"expected", c.expected},
          {"timeout_s", c.timeout_s},
          {"eager_limit", c.eager_limit},
          {"tags", c.tags},
          {"bind", c.bind},
          {"impl", c.impl},
          {"check", c.check},
          {"trace", c.trace},
          {"impl_defined", c.impl_defined},
          {"mode", c.mode},
          {"bench", c.bench},
          {"name_prefix", c.name_prefix}};
}

CaseSpec case_from_json(const nlohmann::json& j) {
  CaseSpec c;
  c.id = j.at("id");
  c.suite = j.at("suite");
  c.script = j.at("script");
  c.stem = j.at("stem");
  c.ranks = j.at("ranks");
  c.backend = j.at("backend");
  c.path = j.at("path");
  c.progress = j.at("progress");
  c.protocol = j.value("protocol", "fewest");
  c.provider = j.at("provider");
  c.options = j.at("options").get<std::map<std::string, std::string>>();
  c.expected = j.at("expected");
  c.timeout_s = j.at("timeout_s");
  c.eager_limit = j.at("eager_limit");
  c.tags = j.at("tags").get<std::vector<std::string>>();
  c.bind = j.at("bind");
  c.impl = j.value("impl", std::string("ref"));
  c.check = j.value("check", "");
  c.trace = j.value("trace", false);
  c.impl_defined = j.value("impl_defined", "");
  c.mode = j.at("mode");
  c.bench = j.at("bench");
  c.name_prefix = j.at("name_prefix");
  return c;
}

}  // namespace harness::suite
