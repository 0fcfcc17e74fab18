// lua_type.cpp — the type constructors and the type userdata (lua_type.hpp). A type holds a
// shared reference: free() drops the script's handle, while ops already issued keep what
// they use (MPI allows freeing a type while operations on it are pending).
#include "lua/lua_type.hpp"

#include <new>
#include <string>
#include <vector>

#include "lua/lua_buffer.hpp"
#include "lua/lua_guard.hpp"

namespace harness::lua {
namespace {

struct LuaType {
  rma::TypeRef type;  // null once freed
};

LuaType& check_udata(lua_State* L, int idx) {
  return *static_cast<LuaType*>(luaL_checkudata(L, idx, kTypeMeta));
}

const rma::Datatype& live(lua_State* L, int idx, const char* op) {
  LuaType& t = check_udata(L, idx);
  if (!t.type) raise_error(L, rma::ErrorClass::arg, op, "the type has been freed");
  return *t.type;
}

void push_type(lua_State* L, rma::TypeRef t) {
  void* mem = lua_newuserdatauv(L, sizeof(LuaType), 0);
  new (mem) LuaType{std::move(t)};
  luaL_setmetatable(L, kTypeMeta);
}

int push_result(lua_State* L, rma::Result<rma::TypeRef> r, const char* op) {
  if (!r) raise_status(L, r.status(), op);
  push_type(L, std::move(r.value()));
  return 1;
}

std::int64_t check_int(lua_State* L, int idx) {
  return static_cast<std::int64_t>(luaL_checkinteger(L, idx));
}

// A Lua list of integers (1-based) as a vector.
std::vector<std::int64_t> check_ints(lua_State* L, int idx, const char* op, const char* what) {
  if (!lua_istable(L, idx))
    raise_error(L, rma::ErrorClass::arg, op, std::string(what) + " must be a list of integers");
  std::vector<std::int64_t> v;
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, idx));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);
    int ok = 0;
    const lua_Integer x = lua_tointegerx(L, -1, &ok);
    if (!ok)
      raise_error(L, rma::ErrorClass::arg, op,
                  std::string(what) + "[" + std::to_string(i) + "] is not an integer");
    v.push_back(static_cast<std::int64_t>(x));
    lua_pop(L, 1);
  }
  return v;
}

int type_contiguous(lua_State* L) {
  return push_result(
      L, rma::Datatype::contiguous(check_int(L, 1), check_type(L, 2, "type_contiguous")),
      "type_contiguous");
}

int type_vector(lua_State* L) {
  return push_result(L,
                     rma::Datatype::vector(check_int(L, 1), check_int(L, 2), check_int(L, 3),
                                           check_type(L, 4, "type_vector")),
                     "type_vector");
}

int type_hvector(lua_State* L) {
  return push_result(L,
                     rma::Datatype::hvector(check_int(L, 1), check_int(L, 2), check_int(L, 3),
                                            check_type(L, 4, "type_hvector")),
                     "type_hvector");
}

int type_indexed(lua_State* L) {
  const char* op = "type_indexed";
  const auto bl = check_ints(L, 1, op, "blocklengths");
  const auto d = check_ints(L, 2, op, "displacements");
  return push_result(L, rma::Datatype::indexed(bl, d, check_type(L, 3, op)), op);
}

int type_hindexed(lua_State* L) {
  const char* op = "type_hindexed";
  const auto bl = check_ints(L, 1, op, "blocklengths");
  const auto d = check_ints(L, 2, op, "byte_displacements");
  return push_result(L, rma::Datatype::hindexed(bl, d, check_type(L, 3, op)), op);
}

int type_indexed_block(lua_State* L) {
  const char* op = "type_indexed_block";
  const auto d = check_ints(L, 2, op, "displacements");
  return push_result(L, rma::Datatype::indexed_block(check_int(L, 1), d, check_type(L, 3, op)), op);
}

int type_hindexed_block(lua_State* L) {
  const char* op = "type_hindexed_block";
  const auto d = check_ints(L, 2, op, "byte_displacements");
  return push_result(L, rma::Datatype::hindexed_block(check_int(L, 1), d, check_type(L, 3, op)),
                     op);
}

int type_subarray(lua_State* L) {
  const char* op = "type_subarray";
  const auto sizes = check_ints(L, 1, op, "sizes");
  const auto subsizes = check_ints(L, 2, op, "subsizes");
  const auto starts = check_ints(L, 3, op, "starts");
  const char* order_name = luaL_checkstring(L, 4);
  const auto order = rma::parse_order(order_name);
  if (!order)
    raise_error(L, rma::ErrorClass::arg, op,
                std::string("order '") + order_name + "' is neither \"c\" nor \"fortran\"");
  return push_result(
      L, rma::Datatype::subarray(sizes, subsizes, starts, *order, check_type(L, 5, op)), op);
}

int type_struct(lua_State* L) {
  const char* op = "type_struct";
  const auto bl = check_ints(L, 1, op, "blocklengths");
  const auto d = check_ints(L, 2, op, "byte_displacements");
  luaL_checktype(L, 3, LUA_TTABLE);
  std::vector<rma::TypeRef> types;
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, 3));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, 3, i);
    types.push_back(check_type(L, lua_gettop(L), op));
    lua_pop(L, 1);
  }
  return push_result(L, rma::Datatype::struct_(bl, d, types), op);
}

int type_resized(lua_State* L) {
  const char* op = "type_resized";
  return push_result(
      L, rma::Datatype::resized(check_type(L, 1, op), check_int(L, 2), check_int(L, 3)), op);
}

template <class F>
int answer(lua_State* L, const char* op, F f) {
  lua_pushinteger(L, static_cast<lua_Integer>(f(live(L, 1, op))));
  return 1;
}

int t_size(lua_State* L) {
  return answer(L, "size", [](const auto& t) { return t.size(); });
}
int t_extent(lua_State* L) {
  return answer(L, "extent", [](const auto& t) { return t.extent(); });
}
int t_lb(lua_State* L) {
  return answer(L, "lb", [](const auto& t) { return t.lb(); });
}
int t_true_lb(lua_State* L) {
  return answer(L, "true_lb", [](const auto& t) { return t.true_lb(); });
}
int t_true_extent(lua_State* L) {
  return answer(L, "true_extent", [](const auto& t) { return t.true_extent(); });
}

int t_signature(lua_State* L) {
  const std::string s = live(L, 1, "signature").signature();
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

int t_free(lua_State* L) {
  live(L, 1, "free");  // freeing twice is an error, as in MPI
  check_udata(L, 1).type.reset();
  return 0;
}

int t_tostring(lua_State* L) {
  LuaType& t = check_udata(L, 1);
  const std::string s = t.type ? "type " + t.type->describe() : "type (freed)";
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

int t_gc(lua_State* L) {
  static_cast<LuaType*>(lua_touserdata(L, 1))->~LuaType();
  return 0;
}

const luaL_Reg kMethods[] = {
    {"size", guarded<t_size>},
    {"extent", guarded<t_extent>},
    {"lb", guarded<t_lb>},
    {"true_lb", guarded<t_true_lb>},
    {"true_extent", guarded<t_true_extent>},
    {"signature", guarded<t_signature>},
    {"free", guarded<t_free>},
    {nullptr, nullptr},
};

const luaL_Reg kConstructors[] = {
    {"type_contiguous", guarded<type_contiguous>},
    {"type_vector", guarded<type_vector>},
    {"type_hvector", guarded<type_hvector>},
    {"type_indexed", guarded<type_indexed>},
    {"type_hindexed", guarded<type_hindexed>},
    {"type_indexed_block", guarded<type_indexed_block>},
    {"type_hindexed_block", guarded<type_hindexed_block>},
    {"type_subarray", guarded<type_subarray>},
    {"type_struct", guarded<type_struct>},
    {"type_resized", guarded<type_resized>},
    {nullptr, nullptr},
};

}  // namespace

rma::TypeRef check_type(lua_State* L, int idx, const char* op) {
  if (lua_type(L, idx) == LUA_TSTRING) return rma::Datatype::basic(check_dtype(L, idx, op));
  if (!luaL_testudata(L, idx, kTypeMeta))
    raise_error(L, rma::ErrorClass::type, op,
                "expected a type or a dtype name, got " + std::string(luaL_typename(L, idx)));
  LuaType& t = check_udata(L, idx);
  if (!t.type) raise_error(L, rma::ErrorClass::arg, op, "the type has been freed");
  return t.type;
}

void add_type_constructors(lua_State* L) {
  if (luaL_newmetatable(L, kTypeMeta)) {
    luaL_newlib(L, kMethods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, guarded<t_tostring>);
    lua_setfield(L, -2, "__tostring");
    lua_pushcfunction(L, t_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
  luaL_setfuncs(L, kConstructors, 0);
}

}  // namespace harness::lua
