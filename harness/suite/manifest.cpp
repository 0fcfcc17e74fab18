#include "suite/manifest.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string_view>

#include "lua/lua_rma.hpp"
#include "lua/lua_state.hpp"
#include "rma/runtime.hpp"
#include "rma/types.hpp"
#include "suite/case_matrix.hpp"
#include "suite/case_table.hpp"

namespace harness::suite {
namespace {

namespace fs = std::filesystem;

// The values of field `key` of the table at `idx`: a scalar or a list of scalars.
std::vector<std::string> string_list(lua_State* L, int idx, const char* key,
                                     const std::string& where) {
  std::vector<std::string> out;
  lua_getfield(L, idx, key);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return out;
  }
  auto take = [&](int i) {
    if (lua_type(L, i) == LUA_TBOOLEAN) {
      out.emplace_back(lua_toboolean(L, i) ? "true" : "false");
    } else if (lua_type(L, i) == LUA_TNUMBER || lua_type(L, i) == LUA_TSTRING) {
      out.emplace_back(lua_tostring(L, i));
    } else {
      throw UsageError(where + ": `" + key + "` must hold strings or numbers");
    }
  };
  if (lua_istable(L, -1)) {
    const lua_Integer n = luaL_len(L, -1);
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      take(lua_gettop(L));
      lua_pop(L, 1);
    }
  } else {
    take(lua_gettop(L));
  }
  lua_pop(L, 1);
  return out;
}

// A field that holds one string (`expect`, `check`): a list, even an empty one, is an error
// (`expect = {}` was taken as not given).
std::optional<std::string> string_field(lua_State* L, int idx, const char* key,
                                        const std::string& where) {
  lua_getfield(L, idx, key);
  std::optional<std::string> v;
  if (lua_type(L, -1) == LUA_TSTRING)
    v = lua_tostring(L, -1);
  else if (!lua_isnil(L, -1))
    throw UsageError(where + ": `" + key + "` must be a string, got " + describe_value(L, -1));
  lua_pop(L, 1);
  return v;
}

std::optional<double> number_field(lua_State* L, int idx, const char* key,
                                   const std::string& where) {
  lua_getfield(L, idx, key);
  std::optional<double> v;
  if (lua_isnumber(L, -1))
    v = lua_tonumber(L, -1);
  else if (!lua_isnil(L, -1))
    throw UsageError(where + ": `" + key + "` must be a number");
  lua_pop(L, 1);
  return v;
}

// A case's time limit: seconds in the range --timeout takes (out of it, cases ended before
// their ranks started, and the launcher reported crashes that say nothing of the cause).
std::optional<double> timeout_field(lua_State* L, int idx, const std::string& where) {
  const std::optional<double> v = number_field(L, idx, "timeout", where);
  if (v && !(*v >= kMinTimeoutS && *v <= kMaxTimeoutS)) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", *v);
    throw UsageError(where + ": `timeout` must be " + timeout_range() + ", not " + text);
  }
  return v;
}

// A manifest key that is not one of `known` is a typo that would silently widen or narrow
// the matrix: an error naming it and the nearest known key.
void check_keys(lua_State* L, int idx, const std::vector<std::string_view>& known,
                const std::string& where) {
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) continue;  // a list part (`cases` entries): checked there
    const std::string key = lua_tostring(L, -1);
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    lua_pop(L, 1);
    throw UsageError(where + ": unknown field '" + key + "'" +
                     unknown_name_hint(key, known, "known fields"));
  }
}

bool glob_match(const std::string& pat, const std::string& s) {
  // '*' matches any run of characters; everything else is literal. Greedy with one restart
  // point, the last '*' seen: a later star makes retrying earlier ones pointless, so the
  // time is at most pattern times text (the recursive form took exponential time in the
  // number of stars: thirty of them hung `list`).
  std::size_t p = 0, i = 0;
  std::size_t star = std::string::npos, resume = 0;
  while (i < s.size()) {
    if (p < pat.size() && pat[p] == '*') {
      star = p++;
      resume = i;
    } else if (p < pat.size() && pat[p] == s[i]) {
      ++p;
      ++i;
    } else if (star != std::string::npos) {
      p = star + 1;
      i = ++resume;
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == '*') ++p;
  return p == pat.size();
}

struct Exclusion {
  std::string pattern;
  std::string reason;
};

std::vector<Exclusion> read_exclusions(const fs::path& file) {
  std::vector<Exclusion> out;
  std::ifstream in(file);
  if (!in) throw UsageError(file.string() + ": cannot read the exclusion file");
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const auto hash = line.find('#');
    if (hash == std::string::npos)
      throw UsageError(file.string() + ":" + std::to_string(lineno) +
                       ": an exclusion needs its reason after '#'");
    std::string pat = line.substr(first, hash - first);
    pat.erase(pat.find_last_not_of(" \t") + 1);
    std::string reason = line.substr(hash + 1);
    reason.erase(0, reason.find_first_not_of(" \t"));
    if (reason.empty())
      throw UsageError(file.string() + ":" + std::to_string(lineno) + ": empty reason");
    out.push_back({pat, reason});
  }
  return out;
}

// Runs a Lua data file and leaves its table on the stack.
void load_table(lua_State* L, const std::string& path) {
  lua::open_rma_descriptive(L);
  lua::LuaFailure f;
  if (!lua::run_file(L, path, f, kTopLevelLimit))
    throw UsageError((f.where.empty() ? path : f.where) + ": " + f.message);
  if (!lua_istable(L, -1)) throw UsageError(path + ": must return a table");
  check_plain_data(L, -1, path);
}

std::vector<int> int_list(const std::vector<std::string>& v, const std::string& where) {
  std::vector<int> out;
  for (const auto& s : v) {
    char* end = nullptr;
    long n = std::strtol(s.c_str(), &end, 10);
    if (*end || n < 1 || n > kMaxRanks)
      throw UsageError(where + ": rank count '" + s + "' is not in 1.." +
                       std::to_string(kMaxRanks));
    out.push_back(static_cast<int>(n));
  }
  return out;
}

// A lone script: one entry with the suite defaults of none.
Expansion expand_script(const std::string& input, const Overrides& o, bool check_declared) {
  Expansion out;
  Expander ex(o, out);
  (void)ex.script(input);  // loaded before the -o check, which reads what it declares
  if (check_declared) check_options_declared(o, out, input);
  CaseEntry e;
  e.script_path = input;
  e.stem = script_stem(input);
  e.where = input;
  ex.add(std::move(e));
  return out;
}

// What a suite's cases inherit: its matrix and timeout, and where their scripts are.
struct SuiteDefaults {
  fs::path dir;  // the suite file's
  fs::path scripts_dir;
  std::vector<std::string> backends, paths, progress, protocols, ranks;
  double timeout = 60;
};

// The suite's own fields (its name into `out`), checked here, so that an error names the
// field that holds them rather than the first case that inherits them.
SuiteDefaults read_suite_defaults(lua_State* L, int t, const std::string& input, Expansion& out) {
  SuiteDefaults d;
  d.dir = fs::path(input).parent_path();
  check_keys(L, t,
             {"name", "scripts_dir", "timeout", "backends", "paths", "progress", "protocols",
              "ranks", "exclude", "cases"},
             input);
  lua_getfield(L, t, "name");
  out.suite = lua_isstring(L, -1) ? lua_tostring(L, -1) : fs::path(input).stem().string();
  lua_pop(L, 1);
  lua_getfield(L, t, "scripts_dir");
  d.scripts_dir = d.dir / (lua_isstring(L, -1) ? lua_tostring(L, -1) : ".");
  lua_pop(L, 1);

  d.backends = string_list(L, t, "backends", input);
  d.paths = string_list(L, t, "paths", input);
  d.progress = string_list(L, t, "progress", input);
  d.protocols = string_list(L, t, "protocols", input);
  d.ranks = string_list(L, t, "ranks", input);
  d.timeout = timeout_field(L, t, input).value_or(60);
  std::vector<std::string> progress;
  for (const auto& p : d.progress) progress.push_back(canonical_progress(p));
  const auto field = [&](const char* f) { return input + ": field '" + f + "'"; };
  check_matrix(d.backends, d.paths, progress, d.protocols, field);
  (void)int_list(d.ranks, field("ranks"));
  return d;
}

// A case's `options` table: each option's list of values.
std::map<std::string, std::vector<std::string>> read_case_options(lua_State* L, int c,
                                                                  const std::string& where) {
  std::map<std::string, std::vector<std::string>> options;
  lua_getfield(L, c, "options");
  if (lua_istable(L, -1)) {
    const int ot = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, ot)) {
      lua_pop(L, 1);
      // lua_tostring would turn a number key into a string in place, and lua_next then
      // fails on the changed key: only a name is an option.
      if (lua_type(L, -1) != LUA_TSTRING)
        throw UsageError(where + ": `options` keys must be option names, not a " +
                         luaL_typename(L, -1) + " (write `name = {values}`)");
      const std::string k = lua_tostring(L, -1);
      options[k] = string_list(L, ot, k.c_str(), where);
      if (options[k].empty())
        throw UsageError(where + ": `options." + k +
                         "`: an empty list of values (no case would run)");
    }
  }
  lua_pop(L, 1);
  return options;
}

// The fields of a case written as a table; a dimension it lists is pinned.
void read_case_fields(lua_State* L, int c, const std::string& where, CaseEntry& e,
                      std::vector<std::string>& ranks) {
  check_keys(L, c,
             {"script", "backends", "paths", "progress", "protocols", "ranks", "tags", "expect",
              "timeout", "options", "check"},
             where);
  if (auto v = string_list(L, c, "backends", where); !v.empty())
    e.backends = v, e.pinned.backends = true;
  if (auto v = string_list(L, c, "paths", where); !v.empty()) e.paths = v, e.pinned.paths = true;
  if (auto v = string_list(L, c, "progress", where); !v.empty())
    e.progress = v, e.pinned.progress = true;
  if (auto v = string_list(L, c, "ranks", where); !v.empty()) ranks = v, e.pinned.ranks = true;
  if (auto v = string_list(L, c, "protocols", where); !v.empty())
    e.protocols = v, e.pinned.protocols = true;
  e.tags = string_list(L, c, "tags", where);
  if (auto v = string_field(L, c, "expect", where)) e.expect = *v;
  if (auto v = string_field(L, c, "check", where)) e.check = *v;
  if (auto v = timeout_field(L, c, where)) e.timeout = *v;
  e.options = read_case_options(L, c, where);
}

// The script a case names (a path, or the table's `script`), under the suite's scripts_dir.
fs::path case_script(lua_State* L, int c, const std::string& where, const SuiteDefaults& d,
                     std::string& script) {
  if (lua_isstring(L, c)) {
    script = lua_tostring(L, c);
  } else if (lua_istable(L, c)) {
    lua_getfield(L, c, "script");
    if (!lua_isstring(L, -1)) throw UsageError(where + ": needs `script`");
    script = lua_tostring(L, -1);
    lua_pop(L, 1);
  } else {
    throw UsageError(where + ": must be a script path or a table");
  }
  if (script.empty()) throw UsageError(where + ": an empty script path");
  const fs::path script_path = (d.scripts_dir / script).lexically_normal();
  std::error_code ec;
  if (!fs::is_regular_file(script_path, ec))
    throw UsageError(where + ": no script " + script_path.string() +
                     (fs::is_directory(script_path, ec) ? " (a directory)" : ""));
  return script_path;
}

// One entry of `cases` (at `c`): its script and, for a table, its own fields over the
// suite's defaults.
CaseEntry read_case(lua_State* L, int c, const std::string& where, const SuiteDefaults& d) {
  std::string script;
  const fs::path script_path = case_script(L, c, where, d, script);
  fs::path stem = fs::path(script).lexically_normal();
  stem.replace_extension();

  CaseEntry e;
  e.script_path = script_path.string();
  e.stem = stem.generic_string();
  e.where = where;
  e.backends = d.backends;
  e.paths = d.paths;
  e.progress = d.progress;
  e.protocols = d.protocols;
  e.suite_timeout = d.timeout;
  std::vector<std::string> ranks = d.ranks;
  if (lua_istable(L, c)) read_case_fields(L, c, where, e, ranks);
  if (!e.expect.empty() && !parse_expected(e.expect))
    throw UsageError(where + ": `expect` must be \"pass\", \"deadlock\" or \"race\"");
  if (!e.check.empty() && parse_check(e.check) != Check::races)
    throw UsageError(where + ": `check` must be \"races\"");
  e.ranks = int_list(ranks, where);
  return e;
}

// The suite's `exclude` file: cases whose id matches a rule move to out.excluded, with its
// reason.
void apply_exclusions(lua_State* L, int t, const fs::path& dir, Expansion& out) {
  lua_getfield(L, t, "exclude");
  if (lua_isstring(L, -1)) {
    const auto rules = read_exclusions(dir / lua_tostring(L, -1));
    std::vector<CaseSpec> kept;
    for (auto& c : out.cases) {
      auto r = std::find_if(rules.begin(), rules.end(),
                            [&](const Exclusion& e) { return glob_match(e.pattern, c.id); });
      if (r == rules.end())
        kept.push_back(std::move(c));
      else
        out.excluded.emplace_back(std::move(c), r->reason);
    }
    out.cases = std::move(kept);
  }
  lua_pop(L, 1);
}

}  // namespace

std::string canonical_progress(const std::string& mode) {
  const auto m = rma::parse_progress_mode(mode);  // the one place old spellings are known
  return m ? name(*m) : mode;
}

// The vocabulary's names come from the implementation (rma/types.hpp, rma/runtime.hpp):
// spelled there once, read here.
std::string timeout_range() {
  char range[80];
  std::snprintf(range, sizeof range, "a number of seconds from %g to %g", kMinTimeoutS,
                kMaxTimeoutS);
  return range;
}

const std::vector<std::string>& progress_modes() {
  static const std::vector<std::string> modes = [] {
    std::vector<std::string> v;
    for (auto n : rma::progress_mode_names()) v.emplace_back(n);
    return v;
  }();
  return modes;
}

const std::vector<std::string>& path_names() {
  static const std::vector<std::string> paths = [] {
    std::vector<std::string> v;
    for (auto n : rma::path_names()) v.emplace_back(n);
    return v;
  }();
  return paths;
}

const std::vector<std::string>& protocol_names() {
  static const std::vector<std::string> protocols = [] {
    std::vector<std::string> v;
    for (auto n : rma::protocol_names()) v.emplace_back(n);
    return v;
  }();
  return protocols;
}

const std::vector<std::string>& backend_names() {
  static const std::vector<std::string> backends = [] {
    std::vector<std::string> v;
    for (const auto& b : rma::compiled_backends()) v.push_back(b.name);
    return v;
  }();
  return backends;
}

bool is_manifest(const std::string& path) {
  lua::LuaState st;
  lua_State* L = st.get();
  lua::open_rma_descriptive(L);
  lua::LuaFailure f;
  if (!lua::run_file(L, path, f, kTopLevelLimit)) {
    if (f.kind == "timeout") throw UsageError(f.where + ": " + f.message);
    return false;  // run as a case script: its case reports the error, file:line
  }
  if (!lua_istable(L, -1)) return false;
  check_plain_data(L, -1, path);
  // `scripts_dir` too: only a suite has it, so a suite whose `cases` is missing or not a
  // list is told so, not read as a case table with unknown fields.
  const bool yes =
      lua_getfield(L, -1, "cases") != LUA_TNIL || lua_getfield(L, -2, "scripts_dir") != LUA_TNIL;
  lua_settop(L, 0);
  return yes;
}

Expansion expand(const std::string& input, const Overrides& o, bool check_declared) {
  if (!is_manifest(input)) return expand_script(input, o, check_declared);
  Expansion out;
  lua::LuaState st;
  lua_State* L = st.get();
  load_table(L, input);
  const int t = lua_gettop(L);
  const SuiteDefaults d = read_suite_defaults(L, t, input, out);

  Expander ex(o, out);
  lua_getfield(L, t, "cases");
  const int cases = lua_gettop(L);
  if (!lua_istable(L, cases))
    throw UsageError(input + ": field 'cases': " +
                     (lua_isnil(L, cases) ? std::string("missing (a suite lists its cases there)")
                                          : "expected a list of script paths or tables, got " +
                                                describe_value(L, cases)));
  const lua_Integer n = luaL_len(L, cases);
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, cases, i);
    ex.add(read_case(L, lua_gettop(L), input + ": cases[" + std::to_string(i) + "]", d));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);

  if (check_declared) check_options_declared(o, out, input);
  apply_exclusions(L, t, d.dir, out);
  return out;
}

void check_options_declared(const Overrides& o, const Expansion& out, const std::string& what) {
  for (const auto& [k, v] : o.options) {
    bool used = false, unknown = false;
    for (const auto& [p, info] : out.scripts) {
      unknown |= info.load_error.has_value();
      for (const auto& d : info.options) used |= d.name == k;
    }
    if (used || unknown) continue;
    if (out.scripts.size() == 1)
      throw UsageError("option '" + k + "' is not declared by " + what +
                       Expander::declared_list(out.scripts.begin()->second));
    ScriptInfo all;  // what they declare between them, each name once
    for (const auto& [p, info] : out.scripts)
      for (const auto& d : info.options)
        if (std::none_of(all.options.begin(), all.options.end(),
                         [&d](const OptionDecl& x) { return x.name == d.name; }))
          all.options.push_back(d);
    throw UsageError("option '" + k + "' is not declared by any script of " + what +
                     Expander::declared_list(all, true));
  }
}

}  // namespace harness::suite
