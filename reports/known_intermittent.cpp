#include "reports/known_intermittent.hpp"

#include <set>
#include <stdexcept>

namespace reports {
namespace {

[[noreturn]] void bad(const std::string& field, const std::string& what) {
  throw std::runtime_error(field + ": " + what);
}

std::string text_field(const nlohmann::json& entry, const std::string& at, const char* key) {
  const auto it = entry.find(key);
  if (it == entry.end()) bad(at, "has no \"" + std::string(key) + "\"");
  if (!it->is_string()) bad(at + "." + key, "must be a string");
  std::string s = it->get<std::string>();
  if (s.empty()) bad(at + "." + key, "must not be empty");
  return s;
}

}  // namespace

std::vector<KnownIntermittent> known_intermittent_from_json(const nlohmann::json& j) {
  if (!j.is_object()) bad("the file", "must be a JSON object with a \"known_intermittent\" list");
  for (const auto& [key, value] : j.items()) {
    if (key != "known_intermittent")
      bad(key, "unknown field (the file has \"known_intermittent\" only)");
  }
  const auto list = j.find("known_intermittent");
  if (list == j.end() || !list->is_array()) bad("known_intermittent", "must be a list");
  static const std::set<std::string> keys{"case", "verdict", "contains", "defect"};
  std::vector<KnownIntermittent> out;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& e = (*list)[i];
    const std::string at = "known_intermittent[" + std::to_string(i) + "]";
    if (!e.is_object()) bad(at, "must be an object");
    for (const auto& [key, value] : e.items()) {
      if (!keys.count(key))
        bad(at + "." + key, "unknown field (known: case, verdict, contains, defect)");
    }
    KnownIntermittent k;
    k.case_id = text_field(e, at, "case");
    const std::string verdict = text_field(e, at, "verdict");
    const auto v = parse_verdict(verdict);
    // Only a failure can be excused: a pass, a skip or an impl_defined verdict is not one.
    if (!v || *v == Verdict::pass || *v == Verdict::skip || *v == Verdict::interrupted ||
        *v == Verdict::impl_defined)
      bad(at + ".verdict",
          "'" + verdict + "' is not a failing verdict (fail, error, crash, timeout, deadlock)");
    k.verdict = *v;
    // Required: a verdict alone would excuse every failure of that kind, the known one or not.
    k.contains = text_field(e, at, "contains");
    k.defect = text_field(e, at, "defect");
    if (!ids.insert(k.case_id + "\n" + verdict).second)
      bad(at + ".case", "'" + k.case_id + "' is listed twice with verdict " + verdict);
    out.push_back(std::move(k));
  }
  return out;
}

std::optional<KnownMatch> known_failure(const std::vector<KnownIntermittent>& known,
                                        const CaseResult& c) {
  if (!c.failed()) return std::nullopt;
  for (const KnownIntermittent& k : known) {
    if (k.case_id != c.id || k.verdict != c.status) continue;
    for (std::size_t i = 0; i < c.failures.size(); ++i)
      if (c.failures[i].message.find(k.contains) != std::string::npos)
        return KnownMatch{&k, static_cast<int>(i)};
    if (c.reason.find(k.contains) != std::string::npos) return KnownMatch{&k, -1};
  }
  return std::nullopt;
}

}  // namespace reports
