// lua_state.hpp — owning a Lua 5.4 state, loading a script, and turning what a failed call
// left on the stack into a located message (file:line plus text).
//
// Built against Debian's C++ build of Lua: lua_error unwinds with a C++ exception, so the
// destructors of C++ objects in binding frames run. Its headers are included as C++.
#pragma once

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include <chrono>
#include <string>

namespace harness::lua {

class LuaState {
 public:
  LuaState();
  ~LuaState();
  LuaState(const LuaState&) = delete;
  LuaState& operator=(const LuaState&) = delete;
  lua_State* get() const { return L_; }

 private:
  lua_State* L_;
};

// A failure from Lua: where it happened ("file.lua:12", may be empty) and what.
struct LuaFailure {
  std::string where;
  std::string message;
  std::string kind = "error";  // error | fail | skip | timeout (run_file's limit)
  std::string error_class;     // RMA error class when an RMA error escaped
};

// Loads `path` (chunk name "@path", so messages say path:line) and runs it with no
// arguments; on success leaves its single result on the stack and returns true. The
// script's own folder is searched first by require(), so a script may share code with its
// neighbours. A `limit` above zero bounds how long the file's top level may run: past it the
// run fails at the line it had reached (the harness reads scripts' tables in its own process,
// where a loop that never ends would hang the whole run).
bool run_file(lua_State* L, const std::string& path, LuaFailure& failure,
              std::chrono::milliseconds limit = std::chrono::milliseconds(0));

// Calls the function below `nargs` arguments on the stack under a message handler; on
// failure pops the error and fills `failure`.
bool protected_call(lua_State* L, int nargs, int nresults, LuaFailure& failure);

// Interprets the error value at `idx`: an RMA error table, a fail/skip marker, or a string
// that begins with "file:line:" (protected_call's handler turns any other value, error({...})
// or error(), into such a string).
LuaFailure failure_from_value(lua_State* L, int idx);

// "file:line" of the Lua code `level` frames up (1: the caller of the C function).
std::string where(lua_State* L, int level = 1);

}  // namespace harness::lua
