// lua_state.cpp — the Lua state, loading a file under its top-level limit, and the message
// handler that turns whatever a script raised into a located failure (lua_state.hpp).
#include "lua/lua_state.hpp"

#include <filesystem>
#include <regex>
#include <stdexcept>

#include "install_layout.hpp"
#include "lua/lua_fields.hpp"

namespace harness::lua {

namespace {

// The function a wrapper stands for (its upvalue), on its first `nargs` arguments.
int call_wrapped(lua_State* L, int nargs) {
  lua_settop(L, nargs);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, nargs, 1);
  return 1;
}

int setmetatable_without_gc(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const int t = lua_type(L, 2);
  luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
  if (t == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    const bool gc = lua_rawget(L, 2) != LUA_TNIL;
    lua_pop(L, 1);
    if (gc)
      return luaL_error(L,
                        "setmetatable: a __gc finalizer is not allowed in rmabench scripts "
                        "(Lua runs finalizers at exit, where nothing can stop one that hangs)");
  }
  return call_wrapped(L, 2);
}

int getmetatable_of_tables(lua_State* L) {
  luaL_checkany(L, 1);
  if (lua_type(L, 1) == LUA_TUSERDATA) {
    lua_pushboolean(L, 0);  // as a protected metatable answers (__metatable = false)
    return 1;
  }
  return call_wrapped(L, 1);
}

// No Lua finalizers. lua_close runs every finalizer with hooks off: one that never returns
// would hold the process (the parent reading a case table, a rank at its end) with no
// deadline able to stop it. Lua marks an object for finalization when a metatable with __gc
// is set on it, and looks the finalizer up in the object's metatable when it runs. So:
// setmetatable refuses __gc; getmetatable does not hand out a userdata's metatable (files,
// buffers, windows: marked already, their C finalizer could be swapped for a Lua one); and
// of the debug library, which reaches every metatable, only traceback is left.
void no_lua_finalizers(lua_State* L) {
  struct Wrapper {
    const char* name;
    lua_CFunction fn;
  };
  for (const Wrapper& w : {Wrapper{"setmetatable", setmetatable_without_gc},
                           Wrapper{"getmetatable", getmetatable_of_tables}}) {
    lua_getglobal(L, w.name);
    lua_pushcclosure(L, w.fn, 1);
    lua_setglobal(L, w.name);
  }
  lua_newtable(L);
  if (lua_getglobal(L, "debug") == LUA_TTABLE)
    lua_getfield(L, -1, "traceback");
  else
    lua_pushnil(L);
  lua_setfield(L, -3, "traceback");
  lua_pop(L, 1);
  lua_setglobal(L, "debug");
}

}  // namespace

LuaState::LuaState() : L_(luaL_newstate()) {
  if (!L_) throw std::runtime_error("cannot create a Lua state (out of memory)");
  luaL_openlibs(L_);
  no_lua_finalizers(L_);
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

// Raw reads: a raised value is read outside any protected call, where a metamethod's error
// would abort the process (the harness's own error tables carry their fields raw).
std::string field_string(lua_State* L, int idx, const char* key) {
  idx = lua_absindex(L, idx);
  lua_pushstring(L, key);
  lua_rawget(L, idx);
  std::string s;
  if (lua_type(L, -1) == LUA_TSTRING) s = lua_tostring(L, -1);
  lua_pop(L, 1);
  return s;
}

// RMA error tables and fail/skip markers carry their own fields (failure_from_value).
bool is_harness_error(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return false;
  const int top = lua_gettop(L);
  idx = lua_absindex(L, idx);
  lua_pushliteral(L, "rmabench");
  bool marked = lua_rawget(L, idx) == LUA_TSTRING;
  lua_pushliteral(L, "class");
  marked = marked || lua_rawget(L, idx) == LUA_TSTRING;
  lua_settop(L, top);
  return marked;
}

// Keeps an error value the harness reads (a string, an RMA error, a marker) but records the
// traceback of the failing frame beside it, in the registry, for the rank's log. Any other
// value (error({code = 5}), error()) becomes a located string that says what it was: left as
// it is, it would reach the report with neither a message nor a line.
int message_handler(lua_State* L) {
  if (is_harness_error(L, 1)) return 1;
  if (lua_type(L, 1) != LUA_TSTRING && lua_type(L, 1) != LUA_TNUMBER) {
    const std::string at = where(L, 1);
    // A value with __tostring says what it gives, as lua.c's handler shows it. The
    // metamethod runs protected: an error inside a message handler would replace the whole
    // message with "error in error handling", the line included.
    std::string value = describe_value(L, 1);
    if (luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
      lua_pop(L, 1);
      lua_pushcfunction(L, [](lua_State* S) {
        luaL_tolstring(S, 1, nullptr);
        return 1;
      });
      lua_pushvalue(L, 1);
      const bool ok = lua_pcall(L, 1, 1, 0) == LUA_OK;
      const char* text = lua_tostring(L, -1);
      value = ok ? std::string(luaL_typename(L, 1)) + " (" + text + ")"
                 : value + " (its __tostring failed: " + (text ? text : "no message") + ")";
      lua_pop(L, 1);
    }
    const std::string msg =
        (at.empty() ? "" : at + ": ") + "error raised with " + value + ", not a message";
    lua_pushlstring(L, msg.data(), msg.size());
    lua_replace(L, 1);
  }
  luaL_traceback(L, L, nullptr, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, "rmabench.last_traceback");
  return 1;
}

// The deadline of the file run_file is running, for top_level_hook (one file at a time per
// thread; the hook has no other place to find it).
thread_local std::chrono::steady_clock::time_point top_level_deadline;
thread_local std::chrono::milliseconds top_level_limit;
thread_local bool top_level_expired = false;

void top_level_hook(lua_State* L, lua_Debug*) {
  if (std::chrono::steady_clock::now() < top_level_deadline) return;
  top_level_expired = true;
  // From now on at every instruction: a pcall in the loop catches one error, not all of
  // them (run_file removes the hook when the file's run ends).
  lua_sethook(L, top_level_hook, LUA_MASKCOUNT, 1);
  // Level 0 is the Lua function the hook interrupted; the message carries its line alone
  // (luaL_error would add its caller's).
  const std::string at = where(L, 0);
  lua_pushfstring(L,
                  "%s: the file's top level ran for more than %d s without returning its table "
                  "(a loop that never ends?)",
                  at.c_str(), static_cast<int>(top_level_limit.count() / 1000));
  lua_error(L);
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

bool run_file(lua_State* L, const std::string& path, LuaFailure& failure,
              std::chrono::milliseconds limit) {
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  lua_getglobal(L, "package");
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "path");
    const std::string old = lua_isstring(L, -1) ? lua_tostring(L, -1) : "";
    lua_pop(L, 1);
    // The script's own folder, then the shared modules: the `lib/` of the nearest folder
    // above it that has one (lua_scripts/lib/ for lua_scripts/datatypes/pairs/x.lua too).
    std::string lib = dir + "/../lib";
    std::error_code ec;
    for (auto up = std::filesystem::path(dir).parent_path(); !up.empty() && up != up.parent_path();
         up = up.parent_path()) {  // not the root
      if (std::filesystem::is_directory(up / "lib", ec)) {
        lib = (up / "lib").string();
        break;
      }
    }
    // Then the installed (or source-tree) lib/, so a user's own scripts anywhere can
    // require the shared modules.
    std::string shared;
    if (const auto data = data_dir(); !data.empty()) {
      const auto installed = data / "lua_scripts/lib";
      if (!std::filesystem::equivalent(installed, lib, ec)) shared = installed.string() + "/?.lua;";
    }
    const std::string now = dir + "/?.lua;" + lib + "/?.lua;" + shared + old;
    lua_pushlstring(L, now.data(), now.size());
    lua_setfield(L, -2, "path");
  }
  lua_pop(L, 1);
  if (luaL_loadfilex(L, path.c_str(), "t") != LUA_OK) {
    failure = failure_from_value(L, -1);
    lua_pop(L, 1);
    return false;
  }
  if (limit.count() <= 0) return protected_call(L, 0, 1, failure);
  top_level_limit = limit;
  top_level_deadline = std::chrono::steady_clock::now() + limit;
  top_level_expired = false;
  // Every million VM instructions: a few milliseconds, and nothing on a quick file.
  lua_sethook(L, top_level_hook, LUA_MASKCOUNT, 1 << 20);
  const bool ok = protected_call(L, 0, 1, failure);
  lua_sethook(L, nullptr, 0, 0);
  if (!ok && top_level_expired) failure.kind = "timeout";
  return ok;
}

}  // namespace harness::lua
