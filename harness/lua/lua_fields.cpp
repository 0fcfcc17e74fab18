// lua_fields.cpp — named-field tables of the bindings checked, and the nearest-word
// suggestion and value descriptions shared with suite/ (lua_fields.hpp).
#include "lua/lua_fields.hpp"

#include <lauxlib.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <string_view>

#include "rma/types.hpp"

namespace harness::lua {

std::string nearest_word(std::string_view word, const std::vector<std::string_view>& known) {
  // Optimal string alignment distance: insert, delete, substitute, swap two neighbours.
  auto distance = [](std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
        d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
          d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    return d[a.size()][b.size()];
  };
  std::string best;
  std::size_t best_d = 0;
  for (auto k : known) {
    const std::size_t dist = distance(word, k);
    if (best.empty() || dist < best_d) best = std::string(k), best_d = dist;
  }
  // Near enough to be a typo: at most 2 edits, and no more than half the word's letters,
  // rounded up (a three-letter name, as `aks` for `ack`, may have two wrong).
  const std::size_t limit =
      std::min<std::size_t>(2, std::max<std::size_t>(1, (word.size() + 1) / 2));
  if (best_d <= limit) return best;
  // Else a shortening: the word's letters in order within a known name that is at most
  // twice as long (`fetch_op` for `fetch_and_op`), the shortest such name.
  auto within = [](std::string_view w, std::string_view k) {
    std::size_t i = 0;
    for (char c : k)
      if (i < w.size() && c == w[i]) ++i;
    return i == w.size();
  };
  std::string shortened;
  if (word.size() >= 3)
    for (auto k : known)
      if (k.size() > word.size() && k.size() <= 2 * word.size() && within(word, k) &&
          (shortened.empty() || k.size() < shortened.size()))
        shortened = std::string(k);
  return shortened;
}

std::string unknown_name_hint(std::string_view word, const std::vector<std::string_view>& known,
                              std::string_view label) {
  if (const std::string near = nearest_word(word, known); !near.empty())
    return " (did you mean '" + near + "'?)";
  std::string list;
  for (auto k : known) list += " " + std::string(k);
  return " (" + std::string(label) + ":" + list + ")";
}

const std::vector<std::string_view>& known_names(NameKind kind) {
  auto all = [](auto count, auto name_of) {
    std::vector<std::string_view> v;
    for (int i = 0; i < count; ++i) v.push_back(name_of(i));
    return v;
  };
  static const std::vector<std::string_view> ops =
      all(rma::op_count, [](int i) { return rma::to_string(static_cast<rma::Op>(i)); });
  static const std::vector<std::string_view> dtypes =
      all(rma::dtype_count, [](int i) { return rma::to_string(static_cast<rma::Dtype>(i)); });
  static const std::vector<std::string_view> asserts = {"nocheck", "nostore", "noput", "noprecede",
                                                        "nosucceed"};
  static const std::vector<std::string_view> lock_types = {"exclusive", "shared"};
  switch (kind) {
    case NameKind::op:
      return ops;
    case NameKind::dtype:
      return dtypes;
    case NameKind::assert_:
      return asserts;
    case NameKind::lock_type:
      return lock_types;
  }
  return ops;
}

std::string unknown_name_message(NameKind kind, std::string_view word) {
  const char* what = kind == NameKind::op        ? "op"
                     : kind == NameKind::dtype   ? "dtype"
                     : kind == NameKind::assert_ ? "assert"
                                                 : "lock type";
  return std::string("unknown ") + what + " '" + std::string(word) + "'" +
         unknown_name_hint(word, known_names(kind));
}

namespace {

std::string quoted(std::string s) {
  if (s.size() > 40) s = s.substr(0, 40) + "...";
  return "\"" + s + "\"";
}

}  // namespace

std::string describe_value(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
    case LUA_TSTRING:
      return "string " + quoted(lua_tostring(L, idx));
    case LUA_TNUMBER: {
      // luaL_tolstring pushes a copy: lua_tostring would turn the slot itself into a string.
      std::string s = lua_isinteger(L, idx) ? "integer " : "number ";
      s += luaL_tolstring(L, idx, nullptr);
      lua_pop(L, 1);
      return s;
    }
    case LUA_TBOOLEAN:
      return std::string("boolean ") + (lua_toboolean(L, idx) ? "true" : "false");
    case LUA_TTABLE:
      break;
    default:
      return luaL_typename(L, idx);
  }
  // Enough scalar fields to recognise the table, sorted (the order lua_next visits string
  // keys in changes from run to run); nested values would make the line long. A __tostring
  // is not called: this runs where an error from script code would not be caught.
  std::vector<std::string> fields;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    const int key = lua_gettop(L) - 1;
    const int kt = lua_type(L, key);
    const int vt = lua_type(L, -1);
    if ((kt == LUA_TSTRING || kt == LUA_TNUMBER) &&
        (vt == LUA_TSTRING || vt == LUA_TNUMBER || vt == LUA_TBOOLEAN)) {
      // Copies only (lua_pushvalue, then convert): lua_next's key stays as it was.
      lua_pushvalue(L, key);
      std::string k = lua_tostring(L, -1);
      lua_pop(L, 1);
      std::string v;
      if (vt == LUA_TSTRING) {
        v = quoted(lua_tostring(L, -1));
      } else {
        v = luaL_tolstring(L, -1, nullptr);
        lua_pop(L, 1);
      }
      fields.push_back(k + "=" + v);
    }
    lua_pop(L, 1);
  }
  std::sort(fields.begin(), fields.end());
  if (fields.empty()) return "table";
  std::string out;
  for (std::size_t i = 0; i < fields.size() && i < 4; ++i) out += (i ? ", " : "") + fields[i];
  if (fields.size() > 4) out += ", ...";
  return "table {" + out + "}";
}

void check_field_names(lua_State* L, int idx, const char* what,
                       const std::vector<std::string_view>& known) {
  const int t = lua_absindex(L, idx);
  // Sorted, so the message is the same whatever order lua_next visits the keys in.
  std::vector<std::string> problems;
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) {
      // Not lua_tostring: it would turn the key itself into a string and break lua_next.
      const std::string key = lua_isinteger(L, -1)
                                  ? "[" + std::to_string(lua_tointeger(L, -1)) + "]"
                                  : std::string("of key type ") + luaL_typename(L, -1);
      problems.push_back("entry " + key + " has no field name");
      continue;
    }
    const std::string_view key = lua_tostring(L, -1);
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    problems.push_back("unknown field '" + std::string(key) + "'" +
                       unknown_name_hint(key, known, "known fields"));
  }
  if (problems.empty()) return;
  std::sort(problems.begin(), problems.end());
  std::string msg;
  for (const auto& p : problems) msg += (msg.empty() ? "" : "; ") + p;
  luaL_error(L, "%s: %s", what, msg.c_str());
}

void field_type_error(lua_State* L, int idx, const char* what, const char* field,
                      const char* expected) {
  const std::string got = describe_value(L, idx);
  luaL_error(L, "%s: field '%s': %s expected, got %s", what, field, expected, got.c_str());
  __builtin_unreachable();
}

std::optional<lua_Integer> integer_field(lua_State* L, int t, const char* what, const char* field) {
  const int type = lua_getfield(L, lua_absindex(L, t), field);
  std::optional<lua_Integer> v;
  if (type != LUA_TNIL) {
    if (type != LUA_TNUMBER) field_type_error(L, -1, what, field, "number");
    int exact = 0;
    v = lua_tointegerx(L, -1, &exact);
    if (!exact) field_type_error(L, -1, what, field, "integer");
  }
  lua_pop(L, 1);
  return v;
}

namespace {

// Nested deeper than this, a table is refused unread: no case table or suite nests so deep,
// and a check that gave up silently would let a metatable through.
constexpr int kMaxDepth = 64;

bool identifier(std::string_view k) {
  if (k.empty() || std::isdigit(static_cast<unsigned char>(k[0]))) return false;
  return std::all_of(k.begin(), k.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// The key at `key` as a path step: `.name` for an identifier, `[k]` otherwise.
std::string path_step(lua_State* L, int key, bool first) {
  if (lua_type(L, key) == LUA_TSTRING) {
    std::size_t len = 0;
    const char* k = lua_tolstring(L, key, &len);
    const std::string_view name(k, len);
    if (identifier(name)) return (first ? "" : ".") + std::string(name);
    return "[\"" + std::string(name) + "\"]";
  }
  if (lua_type(L, key) == LUA_TNUMBER && lua_isinteger(L, key))
    return "[" + std::to_string(lua_tointeger(L, key)) + "]";
  return "[" + describe_value(L, key) + "]";
}

// "" when no table from `t` down has a metatable, else what is wrong and where.
std::string find_metatable(lua_State* L, int t, int depth, const std::string& path,
                           std::set<const void*>& seen) {
  const auto at = [&] { return path.empty() ? std::string() : " (at `" + path + "`)"; };
  if (!seen.insert(lua_topointer(L, t)).second) return "";
  if (lua_getmetatable(L, t)) {
    lua_pop(L, 1);
    return "has a metatable" + at();
  }
  if (depth >= kMaxDepth || !lua_checkstack(L, 4))
    return "nests tables more than " + std::to_string(kMaxDepth) + " deep" + at();
  lua_pushnil(L);
  while (lua_next(L, t)) {
    if (lua_type(L, -1) == LUA_TTABLE) {
      const std::string inner = path + path_step(L, lua_gettop(L) - 1, depth == 0);
      std::string why = find_metatable(L, lua_gettop(L), depth + 1, inner, seen);
      if (!why.empty()) {
        lua_pop(L, 2);
        return why;
      }
    }
    lua_pop(L, 1);
  }
  return "";
}

}  // namespace

std::string plain_data_problem(lua_State* L, int idx) {
  if (!lua_istable(L, idx)) return "";
  std::set<const void*> seen;
  return find_metatable(L, lua_absindex(L, idx), 0, "", seen);
}

}  // namespace harness::lua
