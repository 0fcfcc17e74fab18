// lua_guard.hpp — the one guard at the Lua boundary.
//
// Every C function the `rma` table exposes is registered as guarded<fn>: a C++ exception
// escaping a binding becomes a Lua error located at the script's line, and an RMA Status
// becomes the error value scripts see: {class = "RMA_SYNC", op = "put", message = "...",
// where = "file.lua:12"}. Lua's own errors (thrown by lua_error in the C++ build of Lua) are
// not std::exceptions and pass through untouched.
#pragma once

#include <exception>
#include <string>

#include "lua/lua_state.hpp"
#include "rma/status.hpp"

namespace harness::lua {

// Raises the RMA error value for a failed status.
[[noreturn]] void raise_status(lua_State* L, const rma::Status& s, const char* op);

// Raises an RMA error of class `cls` (for argument checks done in the bindings).
[[noreturn]] void raise_error(lua_State* L, rma::ErrorClass cls, const char* op,
                              const std::string& message);

// The rank argument at `idx` as MPI's int: a value beyond an int is a RANK error (cast, it
// would wrap to another rank: 2^32 + 1 to 1, 2^32 - 1 to PROC_NULL). The range of the
// window's group is the implementation's to check.
int check_rank(lua_State* L, int idx, const char* op);

// Raises the status if it failed.
inline void check(lua_State* L, const rma::Status& s, const char* op) {
  if (!s) raise_status(L, s, op);
}

template <int (*F)(lua_State*)>
int guarded(lua_State* L) {
  try {
    return F(L);
  } catch (const std::exception& e) {
    std::string msg = e.what();
    luaL_where(L, 1);
    lua_pushstring(L, msg.c_str());
    lua_concat(L, 2);
  }
  return lua_error(L);
}

}  // namespace harness::lua
