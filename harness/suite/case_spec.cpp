// Case ids and the JSON codec of a case (case_spec.hpp): enums become their names here.
#include "suite/case_spec.hpp"

namespace harness::suite {

std::string make_case_id(const CaseSpec& c) {
  std::string id = c.suite.empty() ? c.stem : c.suite + "/" + c.stem;
  if (!c.on_reference()) {
    // Backend and path are the reference's; an MPI library is named instead.
    // Progress always: a library's default is calls, not the reference's async.
    id += "[impl=" + c.impl + ",np=" + std::to_string(c.ranks) + ",progress=" + name(c.progress);
    for (const auto& [k, v] : c.options) id += "," + k + "=" + v;
    return id + "]";
  }
  id += "[" + c.backend;
  // A provider is the fabric's: a shm case of a run given one is the same case as without.
  if (c.on_fabric() && !c.provider.empty()) id += ":" + c.provider;
  id += "," + name(c.path) + ",np=" + std::to_string(c.ranks);
  if (c.progress != rma::ProgressMode::async) id += ",progress=" + name(c.progress);
  if (c.protocol_in_id) id += ",protocol=" + protocols_text(c);
  for (const auto& [k, v] : c.options) id += "," + k + "=" + v;
  return id + "]";
}

std::string protocols_text(const CaseSpec& c) {
  std::string out;
  for (rma::Protocol p : c.protocols) out += (out.empty() ? "" : "+") + name(p);
  return out;
}

namespace {

std::vector<rma::Protocol> protocols_from_text(const std::string& text) {
  std::vector<rma::Protocol> out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t plus = text.find('+', from);
    const std::string one = text.substr(from, plus == std::string::npos ? plus : plus - from);
    out.push_back(parse_or_throw(rma::parse_protocol(one), "protocol", one));
    if (plus == std::string::npos) return out;
    from = plus + 1;
  }
}

// A field of a case's JSON through its name table.
template <class T, class Parse>
T field(const nlohmann::json& j, const char* key, Parse parse, const std::string& fallback) {
  const std::string v = j.contains(key) ? j.at(key).get<std::string>() : fallback;
  return parse_or_throw(parse(v), key, v);
}

}  // namespace

nlohmann::json to_json(const CaseSpec& c) {
  return {{"id", c.id},
          {"suite", c.suite},
          {"script", c.script},
          {"stem", c.stem},
          {"ranks", c.ranks},
          {"backend", c.backend},
          {"path", name(c.path)},
          {"progress", name(c.progress)},
          {"protocol", protocols_text(c)},
          {"provider", c.provider},
          {"options", c.options},
          {"expected", name(c.expected)},
          {"timeout_s", c.timeout_s},
          {"eager_limit", c.eager_limit},
          {"tags", c.tags},
          {"bind", name(c.bind)},
          {"impl", c.impl},
          {"check", name(c.check)},
          {"trace", c.trace},
          {"impl_defined", c.impl_defined},
          {"mode", name(c.mode)},
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
  c.path = field<rma::Path>(j, "path", rma::parse_path, "");
  c.progress = field<rma::ProgressMode>(j, "progress", rma::parse_progress_mode, "");
  c.protocols = protocols_from_text(j.value("protocol", "fewest"));
  c.provider = j.at("provider");
  c.options = j.at("options").get<std::map<std::string, std::string>>();
  c.expected = field<Expected>(j, "expected", parse_expected, "");
  c.timeout_s = j.at("timeout_s");
  c.eager_limit = j.at("eager_limit");
  c.tags = j.at("tags").get<std::vector<std::string>>();
  c.bind = field<Bind>(j, "bind", parse_bind, "");
  c.impl = j.value("impl", std::string(kReferenceImpl));
  c.check = field<Check>(j, "check", parse_check, "");
  c.trace = j.value("trace", false);
  c.impl_defined = j.value("impl_defined", "");
  c.mode = field<CaseMode>(j, "mode", parse_case_mode, "");
  c.bench = j.at("bench");
  c.name_prefix = j.at("name_prefix");
  return c;
}

}  // namespace harness::suite
