#include "suite/script_info.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "lua/lua_rma.hpp"
#include "lua/lua_state.hpp"
#include "suite/case_table.hpp"
#include "suite/manifest.hpp"

namespace harness::suite {
namespace {

namespace fs = std::filesystem;

std::string leading_comment(const std::string& path) {
  std::ifstream in(path);
  std::string line, text;
  while (std::getline(in, line)) {
    if (line.rfind("--", 0) != 0) break;
    std::string body = line.substr(2);
    if (!body.empty() && body[0] == ' ') body.erase(0, 1);
    text += body + "\n";
  }
  return text;
}

std::string value_text(lua_State* L, int idx) {
  switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN:
      return lua_toboolean(L, idx) ? "true" : "false";
    case LUA_TNUMBER:
    case LUA_TSTRING:
      return lua_tostring(L, idx);
    default:
      return luaL_typename(L, idx);
  }
}

std::string type_of(lua_State* L, int idx) {
  switch (lua_type(L, idx)) {
    case LUA_TBOOLEAN:
      return "boolean";
    case LUA_TNUMBER:
      return lua_isinteger(L, idx) ? "integer" : "number";
    case LUA_TSTRING:
      return "string";
    default:
      return "";
  }
}

// Reads the case table at the top of the stack into `info`, after check_case_table() made
// sure every field is one it knows, of the type it expects.
void read_case_table(lua_State* L, ScriptInfo& info) {
  const int t = lua_gettop(L);
  check_case_table(L, t, info.path);

  lua_getfield(L, t, "ranks");
  if (lua_isinteger(L, -1)) info.ranks = static_cast<int>(lua_tointeger(L, -1));
  lua_pop(L, 1);

  lua_getfield(L, t, "iterations");
  if (lua_isinteger(L, -1)) info.iterations = static_cast<int>(lua_tointeger(L, -1));
  lua_pop(L, 1);

  lua_getfield(L, t, "expect");
  if (lua_isstring(L, -1))
    info.expect = parse_expected(lua_tostring(L, -1)).value_or(Expected::pass);
  lua_pop(L, 1);

  for (const char* hook : {"setup", "run", "check", "teardown"}) {
    lua_getfield(L, t, hook);
    if (lua_isfunction(L, -1)) info.hooks.emplace_back(hook);
    lua_pop(L, 1);
  }

  lua_getfield(L, t, "messages");
  info.messages = lua_isnil(L, -1)        ? "none"
                  : lua_istable(L, -1)    ? "table"
                  : lua_isfunction(L, -1) ? "function"
                                          : "varies";
  lua_pop(L, 1);

  lua_getfield(L, t, "impl_defined");
  if (lua_isstring(L, -1)) {
    info.impl_defined[""] = lua_tostring(L, -1);
  } else if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      info.impl_defined[lua_tostring(L, -2)] = lua_tostring(L, -1);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);

  lua_getfield(L, t, "timeout");
  if (lua_type(L, -1) == LUA_TNUMBER) {
    info.timeout = TimeoutRule{lua_tonumber(L, -1), {}};
  } else if (lua_istable(L, -1)) {
    TimeoutRule rule;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) == LUA_TSTRING)
        rule.per_unit[lua_tostring(L, -2)] = lua_tonumber(L, -1);
      else
        rule.base = lua_tonumber(L, -1);
      lua_pop(L, 1);
    }
    info.timeout = std::move(rule);
  }
  lua_pop(L, 1);

  lua_getfield(L, t, "options");
  if (lua_istable(L, -1)) {
    const int o = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, o)) {
      OptionDecl d;
      d.name = lua_tostring(L, -2);
      lua_rawgeti(L, -1, 1);
      d.description = lua_tostring(L, -1);
      lua_pop(L, 1);
      lua_rawgeti(L, -1, 2);
      d.type = type_of(L, -1);
      d.default_value = value_text(L, -1);
      lua_pop(L, 1);
      info.options.push_back(std::move(d));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

}  // namespace

std::string script_stem(const std::string& path) {
  fs::path p = fs::path(path).lexically_normal();
  fs::path rel;
  for (fs::path dir = p.parent_path(); !dir.empty() && dir != dir.parent_path();
       dir = dir.parent_path()) {
    if (dir.filename() == "lua_scripts") {
      rel = p.lexically_relative(dir);
      break;
    }
  }
  if (rel.empty()) rel = p.filename();
  rel.replace_extension();
  return rel.generic_string();
}

ScriptInfo load_script_info(const std::string& path) {
  ScriptInfo info;
  info.path = path;
  info.name = script_stem(path);
  info.description = leading_comment(path);
  lua::LuaState state;
  lua_State* L = state.get();
  lua::open_rma_descriptive(L);
  lua::LuaFailure failure;
  if (!lua::run_file(L, path, failure, kTopLevelLimit)) {
    if (failure.kind == "timeout") throw UsageError(failure.where + ": " + failure.message);
    info.load_error =
        failure.where.empty() ? failure.message : failure.where + ": " + failure.message;
    return info;
  }
  read_case_table(L, info);
  return info;
}

std::string impl_defined_reason(const ScriptInfo& info,
                                const std::map<std::string, std::string>& options, int ranks) {
  std::string out;
  for (const auto& [key, reason] : info.impl_defined) {
    bool match = key.empty();
    if (!match) {
      const auto eq = key.find('=');
      const std::string name = key.substr(0, eq), value = key.substr(eq + 1);
      if (name == "np") {
        match = value == std::to_string(ranks);
      } else if (auto it = options.find(name); it != options.end()) {
        match = it->second == value;
      } else {
        for (const auto& d : info.options)
          if (d.name == name) match = d.default_value == value;
      }
    }
    if (match) out += (out.empty() ? "" : "; ") + reason;
  }
  return out;
}

std::optional<double> declared_timeout(const ScriptInfo& info,
                                       const std::map<std::string, std::string>& options) {
  if (!info.timeout) return std::nullopt;
  double s = info.timeout->base;
  for (const auto& [name, seconds] : info.timeout->per_unit) {
    std::string text;
    if (auto it = options.find(name); it != options.end()) text = it->second;
    for (const auto& d : info.options)
      if (d.name == name && text.empty()) text = d.default_value;
    s += seconds * std::strtod(text.c_str(), nullptr);
  }
  if (!(s >= kMinTimeoutS && s <= kMaxTimeoutS)) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", s);
    throw UsageError(info.path + ": case table: field 'timeout' gives " + text +
                     " s for this case, not " + timeout_range());
  }
  return s;
}

std::string check_option_value(const OptionDecl& decl, std::string& value) {
  for (const char c : value)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      return "option " + decl.name + ": a control character in the value (a newline?)";
  if (decl.type == "integer" || decl.type == "number") {
    // Read as the ranks read it (lua_stringtonumber, lua/lua_rma.cpp set_options), so what
    // passes here arrives there as the same number: std::stoll took "010" as octal 8 where
    // the ranks read 10, and std::stod took "inf", which the ranks read as nil.
    lua::LuaState st;
    lua_State* L = st.get();
    const bool read = lua_stringtonumber(L, value.c_str()) != 0;
    const bool integer = read && lua_isinteger(L, -1);
    const double v = read ? lua_tonumber(L, -1) : 0;
    if (decl.type == "integer" && !integer)
      return "option " + decl.name + " expects an integer, got '" + value + "'";
    if (!read) return "option " + decl.name + " expects a number, got '" + value + "'";
    if (!std::isfinite(v))
      return "option " + decl.name + " expects a finite number, got '" + value + "'";
    // The shortest text that reads back as the same number (Lua's own %.14g rounds): an
    // integer as one, a float with its point, so the ranks see the same subtype.
    if (integer) {
      value = std::to_string(lua_tointeger(L, -1));
    } else {
      char text[64];
      const auto end = std::to_chars(text, text + sizeof text, v).ptr;
      value.assign(text, end);
      if (value.find_first_of(".e") == std::string::npos) value += ".0";
    }
  } else if (decl.type == "boolean") {
    if (value != "true" && value != "false")
      return "option " + decl.name + " expects true or false, got '" + value + "'";
  }
  return "";
}

}  // namespace harness::suite
