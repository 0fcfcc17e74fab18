// lua_window.cpp — rma.window{...}, the window object's methods beyond its calls, and the
// request object of the r* calls.
#include "lua/lua_window.hpp"

#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "lua/lua_buffer.hpp"
#include "lua/lua_call.hpp"
#include "lua/lua_fields.hpp"
#include "lua/lua_guard.hpp"
#include "lua/lua_rma.hpp"
#include "races/recorder.hpp"

namespace harness::lua {
namespace {

constexpr const char* kReqMeta = "rma.request";

struct LuaRequest {
  std::unique_ptr<impl::Request> req;
  std::vector<std::shared_ptr<void>> pinned;
};

impl::Window& win_of(lua_State* L) {
  return *check_window(L).win;
}

int req_wait(lua_State* L) {
  auto& r = *static_cast<LuaRequest*>(luaL_checkudata(L, 1, kReqMeta));
  WhereScope w(RankContext::of(L), L);
  check(L, r.req->wait(), "wait");
  if (races::Recorder* rec = races::Recorder::active()) rec->request_done(r.req.get());
  r.pinned.clear();
  return 0;
}

int req_test(lua_State* L) {
  auto& r = *static_cast<LuaRequest*>(luaL_checkudata(L, 1, kReqMeta));
  auto done = r.req->test();
  if (!done) raise_status(L, done.status(), "test");
  if (*done) {
    if (races::Recorder* rec = races::Recorder::active()) rec->request_done(r.req.get());
    r.pinned.clear();
  }
  lua_pushboolean(L, *done);
  return 1;
}

int req_gc(lua_State* L) {
  static_cast<LuaRequest*>(luaL_checkudata(L, 1, kReqMeta))->~LuaRequest();
  return 0;
}

// --- memory views and introspection -----------------------------------------------------------

Buffer view(std::shared_ptr<void> keeper, void* base, std::size_t bytes, rma::Dtype t) {
  Buffer b;
  b.keeper = std::move(keeper);
  b.data = static_cast<std::byte*>(base);
  b.dtype = t;
  b.count = bytes / rma::size_of(t);
  return b;
}

int w_local_buffer(lua_State* L) {
  LuaWindow& lw = check_window(L);
  const rma::Dtype t = lua_isnoneornil(L, 2) ? rma::Dtype::u8 : check_dtype(L, 2, "local_buffer");
  if (lw.win->freed()) raise_error(L, rma::ErrorClass::win, "local_buffer", "the window was freed");
  auto keeper = lw.user_memory ? lw.user_memory : lw.win->memory_keeper();
  push_buffer(L, view(std::move(keeper), lw.win->base(), lw.win->size(), t));
  return 1;
}

int w_shared_query(lua_State* L) {
  LuaWindow& lw = check_window(L);
  const int rank = check_rank(L, 2, "shared_query");
  const rma::Dtype t = lua_isnoneornil(L, 3) ? rma::Dtype::u8 : check_dtype(L, 3, "shared_query");
  auto r = lw.win->shared_query(rank);
  if (!r) raise_status(L, r.status(), "shared_query");
  auto keeper = r->keeper;
  if (!keeper) keeper = lw.user_memory ? lw.user_memory : lw.win->memory_keeper();
  if (races::Recorder* rec = races::Recorder::active())
    rec->memory(lw.win->id(), rank, r->base, r->size, 0);
  push_buffer(L, view(std::move(keeper), r->base, r->size, t));
  return 1;
}

// --- introspection ------------------------------------------------------------------------------

int w_id(lua_State* L) {
  lua_pushinteger(L, win_of(L).id());
  return 1;
}

int w_path(lua_State* L) {
  const std::string p = win_of(L).path();
  lua_pushlstring(L, p.data(), p.size());
  return 1;
}

int w_flavor(lua_State* L) {
  const auto f = rma::to_string(win_of(L).flavor());
  lua_pushlstring(L, f.data(), f.size());
  return 1;
}

int w_size(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(win_of(L).size()));
  return 1;
}

// counters() -> this window's packets and direct operations so far (like rma.counters)
int w_counters(lua_State* L) {
  push_counters_or_skip(L, win_of(L).counters());
  return 1;
}

int w_gc(lua_State* L) {
  static_cast<LuaWindow*>(luaL_checkudata(L, 1, kWindowMeta))->~LuaWindow();
  return 0;
}

int w_tostring(lua_State* L) {
  impl::Window& w = win_of(L);
  const std::string s = "rma.window(" + std::to_string(w.id()) + ", " +
                        std::string(rma::to_string(w.flavor())) + ", " + w.path_detail() + ")";
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

// --- creation
// -------------------------------------------------------------------------------------

// rma.window{...}'s fields: the one list of them (API.md, "Windows", documents each).
const std::vector<std::string_view> kWindowFields = {"size", "disp_unit", "flavor",
                                                     "info", "path",      "memory"};
constexpr const char* kWindowWhat = "rma.window";

// The string of field `field` of the table at 1, or nullptr when nil. A number is no name of
// a flavor or path: luaL_checkstring would take it.
const char* string_field(lua_State* L, const char* field) {
  const int type = lua_getfield(L, 1, field);
  const char* s = nullptr;
  if (type == LUA_TSTRING)
    s = lua_tostring(L, -1);  // the table holds the string while the call runs
  else if (type != LUA_TNIL)
    field_type_error(L, -1, kWindowWhat, field, "string");
  lua_pop(L, 1);
  return s;
}

// info = { key = value }, every value passed on as text. The keys are checked against no
// list: MPI has an implementation ignore the info keys it does not know, and info goes as it
// is to the MPI libraries under test.
void read_info(lua_State* L, rma::WindowConfig& cfg) {
  const int type = lua_getfield(L, 1, "info");
  if (type != LUA_TNIL && type != LUA_TTABLE) field_type_error(L, -1, kWindowWhat, "info", "table");
  if (type == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      // A listed entry (info = { "no_locks" }) has no key to set: dropping it would leave
      // the window without the hint the script meant to give.
      if (lua_type(L, -2) != LUA_TSTRING) {
        const std::string key = describe_value(L, -2);
        luaL_error(L, "%s: field 'info': entry with key %s has no name (write name = value)",
                   kWindowWhat, key.c_str());
      }
      const int vt = lua_type(L, -1);
      if (vt == LUA_TBOOLEAN) {
        cfg.info[lua_tostring(L, -2)] = lua_toboolean(L, -1) ? "true" : "false";
      } else if (vt == LUA_TNUMBER || vt == LUA_TSTRING) {
        cfg.info[lua_tostring(L, -2)] = lua_tostring(L, -1);  // the value: the key stays as it is
      } else {
        const std::string got = describe_value(L, -1);
        luaL_error(L, "%s: field 'info': entry '%s': string, number or boolean expected, got %s",
                   kWindowWhat, lua_tostring(L, -2), got.c_str());
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

// rma.window{ size=, disp_unit=, flavor=, info={...}, path=, memory=buffer }
int l_window(lua_State* L) {
  RankContext& ctx = RankContext::of(L);
  if (!ctx.impl) return luaL_error(L, "rma.window is only available inside a case's hooks");
  luaL_checktype(L, 1, LUA_TTABLE);
  check_field_names(L, 1, kWindowWhat, kWindowFields);
  rma::WindowConfig cfg;
  LuaWindow lw;

  if (const char* f = string_field(L, "flavor")) {
    auto fl = rma::parse_flavor(f);
    if (!fl)
      raise_error(L, rma::ErrorClass::rma_flavor, "window",
                  std::string("unknown flavor '") + f + "'" +
                      unknown_name_hint(f, {"create", "allocate", "shared", "dynamic"}));
    cfg.flavor = *fl;
  }

  lua_getfield(L, 1, "memory");
  Buffer* memory = test_buffer(L, -1);
  if (!memory && !lua_isnil(L, -1)) field_type_error(L, -1, kWindowWhat, "memory", "rma.buffer");
  lua_pop(L, 1);

  if (const auto sz = integer_field(L, 1, kWindowWhat, "size")) {
    if (*sz < 0) raise_error(L, rma::ErrorClass::size, "window", "size is negative");
    cfg.size = static_cast<std::size_t>(*sz);
  } else if (memory) {
    cfg.size = memory->bytes();
  }

  if (const auto du = integer_field(L, 1, kWindowWhat, "disp_unit")) {
    // MPI's disp_unit is an int; a wider value would wrap to another (2^32 + 1 to 1). The core
    // judges the int itself (it must be positive).
    if (*du < std::numeric_limits<int>::min() || *du > std::numeric_limits<int>::max())
      raise_error(L, rma::ErrorClass::disp, "window",
                  "disp_unit " + std::to_string(*du) + " is beyond an int");
    cfg.disp_unit = static_cast<int>(*du);
  }

  read_info(L, cfg);

  if (const char* path = string_field(L, "path")) cfg.info["path"] = path;
  if (!ctx.window_protocol.empty()) cfg.info.emplace("protocol", ctx.window_protocol);

  if (cfg.flavor == rma::Flavor::create) {
    if (memory) {
      if (memory->bytes() < cfg.size)
        raise_error(L, rma::ErrorClass::size, "window", "memory buffer is smaller than size");
      cfg.base = memory->data;
      lw.user_memory = memory->keeper;
    } else {
      // Memory the runtime can share (MPI_Alloc_mem), owned by this window's handle.
      auto mem = ctx.impl->alloc_mem(cfg.size);
      if (!mem) raise_status(L, mem.status(), "window");
      impl::Implementation* im = ctx.impl;
      void* base = mem.value();
      cfg.base = base;
      lw.user_memory = std::shared_ptr<void>(base, [im](void* p) { (void)im->free_mem(p); });
    }
  }

  WhereScope w(ctx, L);
  auto win = ctx.impl->create_window(cfg);
  if (!win) raise_status(L, win.status(), "window");
  lw.win = win.value();
  ctx.paths.insert(lw.win->path());
  if (races::Recorder* rec = races::Recorder::active()) {
    rec->window(lw.win->id(), cfg.disp_unit, cfg.flavor == rma::Flavor::dynamic);
    rec->memory(lw.win->id(), ctx.impl->rank(), lw.win->base(), lw.win->size(), 0);
  }
  void* mem = lua_newuserdatauv(L, sizeof(LuaWindow), 0);
  new (mem) LuaWindow(std::move(lw));
  luaL_setmetatable(L, kWindowMeta);
  return 1;
}

const luaL_Reg kWinMethods[] = {
    {"local_buffer", guarded<w_local_buffer>},
    {"shared_query", guarded<w_shared_query>},
    {"id", guarded<w_id>},
    {"path", guarded<w_path>},
    {"flavor", guarded<w_flavor>},
    {"size", guarded<w_size>},
    {"counters", guarded<w_counters>},
    {nullptr, nullptr},
};

const luaL_Reg kReqMethods[] = {
    {"wait", guarded<req_wait>},
    {"test", guarded<req_test>},
    {nullptr, nullptr},
};

}  // namespace

LuaWindow& check_window(lua_State* L, int idx) {
  return *static_cast<LuaWindow*>(luaL_checkudata(L, idx, kWindowMeta));
}

void push_request(lua_State* L, std::unique_ptr<impl::Request> req,
                  std::vector<std::shared_ptr<void>> pins) {
  void* mem = lua_newuserdatauv(L, sizeof(LuaRequest), 0);
  new (mem) LuaRequest{std::move(req), std::move(pins)};
  luaL_setmetatable(L, kReqMeta);
}

void open_window(lua_State* L, RankContext& ctx) {
  luaL_newmetatable(L, kWindowMeta);
  luaL_newlib(L, kWinMethods);
  add_calls(L, ctx, true);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, w_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, guarded<w_tostring>);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);

  luaL_newmetatable(L, kReqMeta);
  luaL_newlib(L, kReqMethods);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, req_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);

  lua_pushcfunction(L, guarded<l_window>);
  lua_setfield(L, -2, "window");
}

}  // namespace harness::lua
