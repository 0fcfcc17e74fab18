#include "suite/case_table.hpp"

#include <lauxlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "rma/counters.hpp"
#include "suite/manifest.hpp"

namespace harness::suite {
namespace {

constexpr std::string_view kHooks[] = {"setup", "run", "check", "teardown"};

bool is_hook(std::string_view f) {
  return std::find(std::begin(kHooks), std::end(kHooks), f) != std::end(kHooks);
}

// One problem, with the line it can be pinned to (0: unknown).
struct Problem {
  int line = 0;
  std::string text;
};

class Checker {
 public:
  Checker(lua_State* L, int t, const std::string& file) : L_(L), t_(t), file_(file) {}

  void run() {
    lua_pushnil(L_);
    while (lua_next(L_, t_)) {
      if (lua_type(L_, -2) != LUA_TSTRING) {
        // A positional entry (a stray `function ... end` or value with no name).
        std::string key = lua_isinteger(L_, -2) ? "[" + std::to_string(lua_tointeger(L_, -2)) + "]"
                                                : describe_value(L_, -2);
        add(value_line(-1, ""), "entry " + key +
                                    " has no field name (the case table holds named fields "
                                    "only, e.g. run = function(ctx) ... end)");
      } else {
        const std::string key = lua_tostring(L_, -2);
        field(key);
      }
      lua_pop(L_, 1);
    }
  }

  std::vector<Problem> problems;

 private:
  void add(int line, std::string text) { problems.push_back({line, std::move(text)}); }

  // The value of `key` is at the top of the stack.
  void field(const std::string& key) {
    const auto& known = case_table_fields();
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      add(value_line(-1, key),
          "unknown field '" + key + "'" + unknown_name_hint(key, known, "known fields"));
      return;
    }
    if (is_hook(key)) {
      if (!lua_isfunction(L_, -1)) wrong(key, "a function(ctx)");
    } else if (key == "name") {
      const std::string stem = std::filesystem::path(file_).stem().string();
      if (lua_type(L_, -1) != LUA_TSTRING)
        wrong(key, "a string, the file's stem \"" + stem + "\" (or leave it out)");
      else if (stem != lua_tostring(L_, -1))
        add(line_of(key), "field 'name': expected the file's stem \"" + stem +
                              "\" (ids and reports use it; leave `name` out), got \"" +
                              lua_tostring(L_, -1) + "\"");
    } else if (key == "ranks" || key == "iterations") {
      if (!lua_isinteger(L_, -1) || lua_tointeger(L_, -1) < 1)
        wrong(key, "a positive integer");
      else if (key == "ranks" && lua_tointeger(L_, -1) > kMaxRanks)
        wrong(key, "at most " + std::to_string(kMaxRanks) + " ranks (as -n takes)");
    } else if (key == "expect") {
      const bool ok = lua_type(L_, -1) == LUA_TSTRING && parse_expected(lua_tostring(L_, -1));
      if (!ok) wrong(key, "\"pass\", \"deadlock\" or \"race\"");
    } else if (key == "messages") {
      messages();
    } else if (key == "impl_defined") {
      impl_defined();
    } else if (key == "options") {
      options();
    } else if (key == "timeout") {
      timeout();
    }
  }

  void wrong(const std::string& key, const std::string& expected) {
    add(value_line(-1, key),
        "field '" + key + "': expected " + expected + ", got " + describe_value(L_, -1));
  }

  void messages() {
    const int v = lua_gettop(L_);
    if (lua_isfunction(L_, v)) return;  // checked in the rank, on what it returns
    if (is_varies(L_, v)) return;
    if (!lua_istable(L_, v)) {
      wrong("messages",
            "a table of integer counts ({ total = 2, put = 1 }), a function(ctx) or \"varies\"");
      return;
    }
    nlohmann::json counts;
    const std::string err = read_message_counts(L_, v, counts);
    if (!err.empty()) add(line_of("messages"), "field 'messages': " + err);
  }

  // A reason (every case of the script), or a table "option=value" (or "np=N") -> reason.
  void impl_defined() {
    const int v = lua_gettop(L_);
    if (lua_type(L_, v) == LUA_TSTRING) {
      if (lua_rawlen(L_, v) == 0) wrong("impl_defined", "a non-empty reason");
      return;
    }
    const std::string expected =
        "a reason (string), or a table { [\"option=value\"] = reason, [\"np=1\"] = reason }";
    if (!lua_istable(L_, v)) {
      wrong("impl_defined", expected);
      return;
    }
    lua_getfield(L_, t_, "options");
    const int opts = lua_gettop(L_);
    lua_pushnil(L_);
    while (lua_next(L_, v)) {
      const bool ok = lua_type(L_, -2) == LUA_TSTRING && lua_type(L_, -1) == LUA_TSTRING &&
                      lua_rawlen(L_, -1) > 0;
      std::string k = ok ? lua_tostring(L_, -2) : "";
      const auto eq = k.find('=');
      if (!ok || eq == std::string::npos || eq == 0) {
        add(line_of("impl_defined"), "field 'impl_defined': expected " + expected + ", got key " +
                                         describe_value(L_, -2) + " = " + describe_value(L_, -1));
      } else if (const std::string name = k.substr(0, eq); name != "np") {
        bool declared = false;
        if (lua_istable(L_, opts)) {
          lua_getfield(L_, opts, name.c_str());
          declared = !lua_isnil(L_, -1);
          lua_pop(L_, 1);
        }
        if (!declared)
          add(line_of("impl_defined"), "field 'impl_defined': key \"" + k + "\" names option '" +
                                           name +
                                           "', which the case does not declare (nor is it np)");
      }
      lua_pop(L_, 1);
    }
    lua_pop(L_, 1);
  }

  // Seconds, or { seconds, option = seconds per unit of that numeric option's value }: a
  // script whose run grows with an option says so, and a long run needs no --timeout.
  void timeout() {
    const int v = lua_gettop(L_);
    const std::string expected =
        "seconds, or { seconds, option = seconds per unit of that numeric option }";
    if (lua_type(L_, v) == LUA_TNUMBER) {
      if (!(lua_tonumber(L_, v) >= kMinTimeoutS && lua_tonumber(L_, v) <= kMaxTimeoutS))
        wrong("timeout", timeout_range());
      return;
    }
    // Only a table may be indexed raw: on a string or a function lua_rawgeti reads out of
    // bounds.
    bool base = false;
    if (lua_istable(L_, v)) {
      lua_rawgeti(L_, v, 1);
      base = lua_type(L_, -1) == LUA_TNUMBER && lua_tonumber(L_, -1) >= 0 &&
             lua_tonumber(L_, -1) <= kMaxTimeoutS;
      lua_pop(L_, 1);
    }
    if (!base) {
      wrong("timeout", expected);
      return;
    }
    lua_getfield(L_, t_, "options");
    const int opts = lua_gettop(L_);
    lua_pushnil(L_);
    while (lua_next(L_, v)) {
      if (lua_isinteger(L_, -2) && lua_tointeger(L_, -2) == 1) {
        lua_pop(L_, 1);
        continue;
      }
      const std::string what = "field 'timeout': ";
      if (lua_type(L_, -2) != LUA_TSTRING || lua_type(L_, -1) != LUA_TNUMBER ||
          !(lua_tonumber(L_, -1) >= 0)) {
        add(line_of("timeout"), what + "expected " + expected + ", got key " +
                                    describe_value(L_, -2) + " = " + describe_value(L_, -1));
      } else {
        const std::string name = lua_tostring(L_, -2);
        bool numeric = false;
        if (lua_istable(L_, opts)) {
          lua_getfield(L_, opts, name.c_str());
          if (lua_istable(L_, -1)) {
            lua_rawgeti(L_, -1, 2);
            numeric = lua_type(L_, -1) == LUA_TNUMBER;
            lua_pop(L_, 1);
          }
          lua_pop(L_, 1);
        }
        if (!numeric)
          add(line_of("timeout"),
              what + "'" + name + "' is not an option the case declares with a number");
      }
      lua_pop(L_, 1);
    }
    lua_pop(L_, 1);
  }

  void options() {
    const int o = lua_gettop(L_);
    if (!lua_istable(L_, o)) {
      wrong("options", "a table { name = {\"description\", default} }");
      return;
    }
    lua_pushnil(L_);
    while (lua_next(L_, o)) {
      const int e = lua_gettop(L_);
      if (lua_type(L_, e - 1) != LUA_TSTRING) {
        add(line_of("options"),
            "field 'options': option names must be strings, got " + describe_value(L_, e - 1));
        lua_pop(L_, 1);
        continue;
      }
      const std::string name = lua_tostring(L_, e - 1);
      const std::string what = "field 'options': option '" + name + "': expected ";
      bool ok = lua_istable(L_, e) && lua_rawlen(L_, e) == 2;
      if (ok) {
        // Nothing but the two positional entries.
        int n = 0;
        lua_pushnil(L_);
        while (lua_next(L_, e)) {
          ++n;
          lua_pop(L_, 1);
        }
        ok = n == 2;
      }
      if (!ok) {
        add(option_line(name), what + "{\"description\", default}, got " + describe_value(L_, e));
      } else {
        lua_rawgeti(L_, e, 1);
        if (lua_type(L_, -1) != LUA_TSTRING)
          add(option_line(name),
              what + "a string description first, got " + describe_value(L_, -1));
        lua_pop(L_, 1);
        lua_rawgeti(L_, e, 2);
        const int t = lua_type(L_, -1);
        if (t != LUA_TNUMBER && t != LUA_TSTRING && t != LUA_TBOOLEAN)
          add(option_line(name), what + "a default that is a number, string or boolean, got " +
                                     describe_value(L_, -1));
        lua_pop(L_, 1);
      }
      lua_pop(L_, 1);
    }
  }

  // The line of the value at `idx`: a Lua function's first line, else the line assigning
  // `key` in the file.
  int value_line(int idx, const std::string& key) {
    if (lua_isfunction(L_, idx) && !lua_iscfunction(L_, idx)) {
      lua_Debug ar;
      lua_pushvalue(L_, idx);
      lua_getinfo(L_, ">S", &ar);
      if (ar.source && ar.source[0] == '@' && file_ == ar.source + 1 && ar.linedefined > 0)
        return ar.linedefined;
    }
    return key.empty() ? 0 : line_of(key);
  }

  // An option's own line, else that of the `options` table holding it (an option written
  // inline, `options = { count = 8 }`, has no line of its own).
  int option_line(const std::string& name) {
    const int own = line_of(name);
    return own ? own : line_of("options");
  }

  // The one line of the file that assigns `key` ("key =" at a line's start); 0 when there is
  // none or more than one.
  int line_of(const std::string& key) {
    if (!lines_read_) {
      std::ifstream in(file_);
      for (std::string l; std::getline(in, l);) lines_.push_back(l);
      lines_read_ = true;
    }
    int found = 0;
    for (std::size_t i = 0; i < lines_.size(); ++i) {
      const std::string& l = lines_[i];
      std::size_t p = l.find_first_not_of(" \t");
      if (p == std::string::npos || l.compare(p, key.size(), key) != 0) continue;
      p = l.find_first_not_of(" \t", p + key.size());
      if (p == std::string::npos || l[p] != '=' || (p + 1 < l.size() && l[p + 1] == '=')) continue;
      if (found) return 0;
      found = static_cast<int>(i + 1);
    }
    return found;
  }

  lua_State* L_;
  int t_;
  const std::string& file_;
  bool lines_read_ = false;
  std::vector<std::string> lines_;
};

// What a `messages` table may count: "total" and the RMA packet types, by the names
// rma/counters.hpp gives them (the counts are compared with those of the rma class only).
const std::vector<std::string_view>& message_keys() {
  static const std::vector<std::string_view> keys = [] {
    std::vector<std::string_view> k = {"total"};
    for (int i = 0; i < rma::packet_type_count; ++i)
      if (const auto t = static_cast<rma::PacketType>(i); rma::class_of(t) == rma::PacketClass::rma)
        k.push_back(rma::to_string(t));
    return k;
  }();
  return keys;
}

// "" for a key a `messages` table may have, else why not: a key that is no RMA packet type
// would be compared with a count that is always 0, so a misspelt type could never be checked.
std::string message_key_problem(const std::string& key) {
  const auto& known = message_keys();
  if (std::find(known.begin(), known.end(), key) != known.end()) return "";
  for (int i = 0; i < rma::packet_type_count; ++i)
    if (const auto t = static_cast<rma::PacketType>(i); rma::to_string(t) == key)
      return "packet type '" + key + "' is " + std::string(rma::to_string(rma::class_of(t))) +
             " traffic, not an RMA packet (messages counts RMA packets only)";
  return "unknown packet type '" + key + "'" + unknown_name_hint(key, known);
}

}  // namespace

const std::vector<std::string_view>& case_table_fields() {
  static const std::vector<std::string_view> fields = {
      "name",     "ranks",    "options", "setup",      "run",          "check",
      "teardown", "messages", "expect",  "iterations", "impl_defined", "timeout"};
  return fields;
}

void check_plain_data(lua_State* L, int idx, const std::string& file) {
  const std::string why = lua::plain_data_problem(L, idx);
  if (why.empty()) return;
  throw UsageError(file + ": the table it returns " + why +
                   ": case tables and suites are plain data, read without running Lua");
}

void check_case_table(lua_State* L, int idx, const std::string& file) {
  const int t = lua_absindex(L, idx);
  if (!lua_istable(L, t))
    throw UsageError(file + ": the script must return a case table, it returned " +
                     luaL_typename(L, t));
  check_plain_data(L, t, file);
  Checker c(L, t, file);
  c.run();
  if (c.problems.empty()) return;
  std::sort(c.problems.begin(), c.problems.end(), [](const Problem& a, const Problem& b) {
    return a.line != b.line ? a.line < b.line : a.text < b.text;
  });
  std::string msg;
  for (const auto& p : c.problems) {
    if (!msg.empty()) msg += "\n";
    msg += file + (p.line ? ":" + std::to_string(p.line) : "") + ": case table: " + p.text;
  }
  throw UsageError(msg);
}

Declared declared_kind(const nlohmann::json& j) {
  if (j.is_object()) return Declared::counts;
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (s == "varies") return Declared::varies;
    if (s == "direct") return Declared::direct;
    if (s == "direct_varies") return Declared::direct_varies;
  }
  return Declared::none;
}

nlohmann::json declaration(Declared kind) {
  switch (kind) {
    case Declared::varies:
      return "varies";
    case Declared::direct:
      return "direct";
    case Declared::direct_varies:
      return "direct_varies";
    case Declared::counts:
      return nlohmann::json::object();
    case Declared::none:
      break;
  }
  return nullptr;
}

bool is_varies(lua_State* L, int idx) {
  return lua_type(L, idx) == LUA_TSTRING && std::string_view(lua_tostring(L, idx)) == "varies";
}

std::string read_message_counts(lua_State* L, int idx, nlohmann::json& out) {
  const int t = lua_absindex(L, idx);
  out = nlohmann::json::object();
  // Sorted, so the first problem named is the same every run.
  std::map<std::string, std::string> problems;
  lua_pushnil(L);
  while (lua_next(L, t)) {
    if (lua_type(L, -2) != LUA_TSTRING) {
      problems.emplace("",
                       "keys must be packet type names or \"total\", got " + describe_value(L, -2));
      lua_pop(L, 1);
      continue;
    }
    const std::string key = lua_tostring(L, -2);
    if (std::string p = message_key_problem(key); !p.empty()) {
      problems.emplace(key, std::move(p));
      lua_pop(L, 1);
      continue;
    }
    // A float with an integral value (4 / 2) is that integer (lua_tointegerx converts only
    // exact values); 2.5 is not a count, nor is the string "2".
    int exact = 0;
    const lua_Integer n = lua_type(L, -1) == LUA_TNUMBER ? lua_tointegerx(L, -1, &exact) : 0;
    if (!exact) {
      problems.emplace(
          key, "entry '" + key + "': expected an integer count, got " + describe_value(L, -1) +
                   (lua_type(L, -1) == LUA_TNUMBER ? " (use // for integer division)" : ""));
      lua_pop(L, 1);
      continue;
    }
    if (n < 0)
      problems.emplace(key, "entry '" + key + "': expected a count >= 0, got " + std::to_string(n));
    else
      out[key] = n;
    lua_pop(L, 1);
  }
  if (problems.empty()) return "";
  std::string msg;
  for (const auto& [k, p] : problems) msg += (msg.empty() ? "" : "; ") + p;
  return msg;
}

}  // namespace harness::suite
