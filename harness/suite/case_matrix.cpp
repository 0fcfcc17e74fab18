// Expanding an entry of a suite into its cases (case_matrix.hpp): narrowing by the command
// line, defaults, option values checked against the script's declarations, the cartesian
// product, and each case's fields and id.
#include "suite/case_matrix.hpp"

#include <string_view>

#include "suite/case_table.hpp"

namespace harness::suite {
namespace {

void check_values(const std::vector<std::string>& vals, const std::vector<std::string>& allowed,
                  const std::string& what, const std::string& where) {
  const std::vector<std::string_view> known(allowed.begin(), allowed.end());
  for (const auto& v : vals)
    if (std::find(known.begin(), known.end(), v) == known.end())
      throw UsageError(where + ": unknown " + what + " '" + v + "'" + unknown_name_hint(v, known));
}

}  // namespace

void check_matrix(const std::vector<std::string>& backends, const std::vector<std::string>& paths,
                  const std::vector<std::string>& progress,
                  const std::vector<std::string>& protocols,
                  const std::function<std::string(const char* field)>& where) {
  check_values(backends, backend_names(), "backend", where("backends"));
  check_values(paths, path_names(), "path", where("paths"));
  check_values(progress, progress_modes(), "progress mode", where("progress"));
  check_values(protocols, protocol_names(), "protocol", where("protocols"));
}

const ScriptInfo& Expander::script(const std::string& path) {
  auto it = out_.scripts.find(path);
  if (it == out_.scripts.end()) it = out_.scripts.emplace(path, load_script_info(path)).first;
  return it->second;
}

void Expander::add(CaseEntry e) {
  const ScriptInfo& info = script(e.script_path);
  for (auto& p : e.progress) p = canonical_progress(p);
  // An entry whose matrix a command-line setting replaced (rather than narrowed) yields to
  // an entry that names that value itself: `--progress sync_only` turns a plain entry into
  // the same case as the entry written for sync_only, whose expectation is the one meant.
  const bool replaced = (o_.backend && !e.pinned.backends) || (o_.path && !e.pinned.paths) ||
                        (o_.progress && !e.pinned.progress) || (o_.ranks && !e.pinned.ranks) ||
                        (o_.protocol && !e.pinned.protocols);
  if (!narrow_matrix(e)) return;
  const CaseSpec defaults;
  if (e.backends.empty()) e.backends = {defaults.backend};
  if (e.paths.empty()) e.paths = {name(defaults.path)};
  if (e.progress.empty()) e.progress = {name(defaults.progress)};
  if (e.protocols.empty()) e.protocols = {protocols_text(defaults)};
  if (e.ranks.empty()) e.ranks = {info.ranks};
  check_matrix(e.backends, e.paths, e.progress, e.protocols, [&](const char*) { return e.where; });

  const auto combos = option_combinations(option_values(e, info));
  for (const auto& b : e.backends)
    for (const auto& p : e.paths)
      for (const auto& pr : e.progress)
        for (const auto& proto : e.protocols)
          for (int n : e.ranks)
            for (const auto& combo : combos) {
              CaseSpec c;
              c.ranks = n;
              c.backend = b;
              c.path = parse_or_throw(rma::parse_path(p), "path", p);
              c.progress = parse_or_throw(rma::parse_progress_mode(pr), "progress", pr);
              c.protocols = {parse_or_throw(rma::parse_protocol(proto), "protocol", proto)};
              c.options = combo;
              fill_case(c, e, info);
              if (!o_.filter.empty() && c.id.find(o_.filter) == std::string::npos) continue;
              record(std::move(c), replaced, e.where);
            }
}

bool Expander::narrow_matrix(CaseEntry& e) const {
  return narrow(e.backends, e.pinned.backends, o_.backend) &&
         narrow(e.paths, e.pinned.paths, o_.path) &&
         narrow(e.progress, e.pinned.progress, o_.progress) &&
         narrow(e.ranks, e.pinned.ranks, o_.ranks) &&
         narrow(e.protocols, e.pinned.protocols, o_.protocol);
}

std::map<std::string, std::vector<std::string>> Expander::option_values(
    const CaseEntry& e, const ScriptInfo& info) const {
  std::map<std::string, std::vector<std::string>> opts = e.options;
  for (const auto& [k, v] : o_.options) {
    const bool declared = std::any_of(info.options.begin(), info.options.end(),
                                      [&key = k](const OptionDecl& d) { return d.name == key; });
    if (declared) opts[k] = {v};
  }
  if (info.load_error) return opts;
  for (auto& [k, vals] : opts) {
    auto d = std::find_if(info.options.begin(), info.options.end(),
                          [&key = k](const OptionDecl& x) { return x.name == key; });
    if (d == info.options.end())
      throw UsageError(e.where + ": option '" + k + "' is not declared by " + e.script_path +
                       declared_list(info));
    for (std::size_t i = 0; i < vals.size(); ++i) {
      const std::string given = vals[i];
      const std::string err = check_option_value(*d, vals[i]);
      if (!err.empty()) throw UsageError(e.where + ": " + err);
      // Two spellings of one value would be one case twice.
      for (std::size_t j = 0; j < i; ++j)
        if (vals[j] == vals[i])
          throw UsageError(e.where + ": option " + k + ": '" + given + "' is " + vals[i] +
                           ", listed already");
    }
  }
  return opts;
}

std::vector<std::map<std::string, std::string>> Expander::option_combinations(
    const std::map<std::string, std::vector<std::string>>& opts) {
  std::vector<std::map<std::string, std::string>> combos{{}};
  for (const auto& [k, vals] : opts) {
    std::vector<std::map<std::string, std::string>> next;
    for (const auto& c : combos)
      for (const auto& v : vals) {
        auto m = c;
        m[k] = v;
        next.push_back(std::move(m));
      }
    combos = std::move(next);
  }
  return combos;
}

void Expander::fill_case(CaseSpec& c, const CaseEntry& e, const ScriptInfo& info) const {
  c.suite = out_.suite;
  c.script = e.script_path;
  c.stem = e.stem;
  c.protocol_in_id = e.protocols.size() > 1;
  // Only a fabric case runs on a provider: the others' reports must not name one.
  c.provider = c.on_fabric() ? o_.provider.value_or("") : "";
  c.expected =
      e.expect.empty() ? info.expect : parse_or_throw(parse_expected(e.expect), "expect", e.expect);
  c.timeout_s = o_.timeout_s ? *o_.timeout_s
                : e.timeout  ? *e.timeout
                             : declared_timeout(info, c.options).value_or(e.suite_timeout);
  c.eager_limit = o_.eager_limit.value_or(c.eager_limit);
  c.tags = e.tags;
  c.bind = parse_or_throw(parse_bind(o_.bind), "--bind", o_.bind);
  const std::string& check = o_.check.empty() ? e.check : o_.check;
  c.check = parse_or_throw(parse_check(check), "check", check);
  c.trace = o_.trace;
  c.impl_defined = impl_defined_reason(info, c.options, c.ranks);
  c.id = make_case_id(c);
}

void Expander::record(CaseSpec c, bool replaced, const std::string& where) {
  const auto [seen, fresh] = ids_.try_emplace(c.id, Seen{out_.cases.size(), replaced});
  if (!fresh) {
    if (replaced) return;  // the other entry is the one written for this case
    if (!seen->second.replaced) throw UsageError(where + ": case " + c.id + " appears twice");
    out_.cases[seen->second.index] = std::move(c);
    seen->second.replaced = false;
    return;
  }
  out_.cases.push_back(std::move(c));
}

std::string Expander::declared_list(const ScriptInfo& info, bool several) {
  if (info.options.empty())
    return several ? " (they declare no options)" : " (it declares no options)";
  std::string s = " (declared:";
  for (const auto& d : info.options) s += " " + d.name;
  return s + ")";
}

}  // namespace harness::suite
