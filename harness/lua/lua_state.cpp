#include "lua/lua_state.hpp"

#include <regex>
#include <stdexcept>

namespace harness::lua {

LuaState::LuaState() : L_(luaL_newstate()) {
  if (!L_) throw std::runtime_error("cannot create a Lua state (out of memory)");
  luaL_openlibs(L_);
}

LuaState::~LuaState() {
  lua_close(L_);
}

std::string where(lua_State* L, int level) {
  lua_Debug ar;
  // Skip frames of C functions (the guard, pcall) to find the script's line.
  for (int l = level; lua_getstack(L, l, &ar); ++l) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline > 0) return std::string(ar.short_src) + ":" + std::to_string(ar.currentline);
  }
  return {};
}

namespace {

std::string field_string(lua_State* L, int idx, const char* key) {
  lua_getfield(L, idx, key);
  std::string s;
  if (lua_type(L, -1) == LUA_TSTRING) s = lua_tostring(L, -1);
  lua_pop(L, 1);
  return s;
}

// Keeps the error value but records the traceback of the failing frame beside it, in the
// registry, for the rank's log.
int message_handler(lua_State* L) {
  if (lua_type(L, 1) == LUA_TSTRING || lua_type(L, 1) == LUA_TNUMBER) {
    luaL_traceback(L, L, nullptr, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, "rmabench.last_traceback");
  }
  return 1;
}

}  // namespace

LuaFailure failure_from_value(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  LuaFailure f;
  if (lua_type(L, idx) == LUA_TTABLE) {
    f.where = field_string(L, idx, "where");
    std::string cls = field_string(L, idx, "class");
    std::string kind = field_string(L, idx, "rmabench");
    if (kind == "fail" || kind == "skip") {
      f.kind = kind;
      f.message = field_string(L, idx, "message");
      return f;
    }
    f.error_class = cls;
    std::string op = field_string(L, idx, "op");
    f.message = (cls.empty() ? std::string("error") : cls) + (op.empty() ? "" : " in " + op) +
                ": " + field_string(L, idx, "message");
    return f;
  }
  const char* s = lua_tostring(L, idx);
  std::string msg = s ? s : ("error object is a " + std::string(luaL_typename(L, idx)));
  // "path:line: text" is how Lua locates errors raised by Lua code and luaL_error.
  static const std::regex located(R"(^([^\n:]+:\d+): ([\s\S]*)$)");
  std::smatch m;
  if (std::regex_match(msg, m, located)) {
    f.where = m[1];
    f.message = m[2];
  } else {
    f.message = msg;
  }
  return f;
}

bool protected_call(lua_State* L, int nargs, int nresults, LuaFailure& failure) {
  const int base = lua_gettop(L) - nargs;  // the function's index
  lua_pushcfunction(L, message_handler);
  lua_insert(L, base);
  const int rc = lua_pcall(L, nargs, nresults, base);
  lua_remove(L, base);
  if (rc == LUA_OK) return true;
  failure = failure_from_value(L, -1);
  lua_pop(L, 1);
  return false;
}

bool run_file(lua_State* L, const std::string& path, LuaFailure& failure) {
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  lua_getglobal(L, "package");
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "path");
    const std::string old = lua_isstring(L, -1) ? lua_tostring(L, -1) : "";
    lua_pop(L, 1);
    // The script's own folder, then lua_scripts/lib/ (modules the pattern folders share).
    const std::string now = dir + "/?.lua;" + dir + "/../lib/?.lua;" + old;
    lua_pushlstring(L, now.data(), now.size());
    lua_setfield(L, -2, "path");
  }
  lua_pop(L, 1);
  if (luaL_loadfilex(L, path.c_str(), "t") != LUA_OK) {
    failure = failure_from_value(L, -1);
    lua_pop(L, 1);
    return false;
  }
  return protected_call(L, 0, 1, failure);
}

}  // namespace harness::lua
