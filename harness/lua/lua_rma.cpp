#include "lua/lua_rma.hpp"

#include <time.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include <string>
#include <string_view>
#include <vector>

#include "lua/lua_buffer.hpp"
#include "lua/lua_call.hpp"
#include "lua/lua_fields.hpp"
#include "lua/lua_guard.hpp"
#include "lua/lua_type.hpp"
#include "lua/lua_window.hpp"
#include "oracle/oracle.hpp"
#include "rma/counters.hpp"
#include "rma/types.hpp"

namespace harness::lua {
namespace {

constexpr const char* kCtxKey = "rmabench.ctx";

std::string to_text(lua_State* L, int idx) {
  std::size_t len = 0;
  const char* s = luaL_tolstring(L, idx, &len);
  std::string out(s, len);
  lua_pop(L, 1);
  return out;
}

void record_failure(lua_State* L, std::string message) {
  RankContext::of(L).failures.push_back({where(L, 1), std::move(message)});
}

// --- expectations -------------------------------------------------------------------------

int l_expect(lua_State* L) {
  luaL_checkany(L, 1);
  const bool ok = lua_toboolean(L, 1);
  if (!ok) record_failure(L, lua_isnoneornil(L, 2) ? "expectation failed" : to_text(L, 2));
  lua_pushboolean(L, ok);
  return 1;
}

int l_expect_eq(lua_State* L) {
  luaL_checkany(L, 1);
  luaL_checkany(L, 2);
  bool ok;
  Buffer* a = test_buffer(L, 1);
  Buffer* b = test_buffer(L, 2);
  if (a && b) {
    note_access(L, *a, false);
    note_access(L, *b, false);
  }
  if (a && b)
    ok = a->dtype == b->dtype && a->count == b->count &&
         std::memcmp(a->data, b->data, a->bytes()) == 0;
  else
    ok = lua_compare(L, 1, 2, LUA_OPEQ);
  if (!ok) {
    std::string msg = lua_isnoneornil(L, 3) ? "values differ" : to_text(L, 3);
    record_failure(L, msg + ": expected " + to_text(L, 2) + ", got " + to_text(L, 1));
  }
  lua_pushboolean(L, ok);
  return 1;
}

// expect_error(class, fn, ...) -> the error value, or nil after recording a failure
int l_expect_error(lua_State* L) {
  const char* cls = luaL_checkstring(L, 1);
  if (!rma::parse_error_class(cls)) luaL_error(L, "expect_error: unknown error class '%s'", cls);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  const int nargs = lua_gettop(L) - 2;
  const std::string site = where(L, 1);
  lua_pushvalue(L, 2);
  for (int i = 0; i < nargs; ++i) lua_pushvalue(L, 3 + i);
  const int rc = lua_pcall(L, nargs, 0, 0);
  auto& failures = RankContext::of(L).failures;
  if (rc == LUA_OK) {
    failures.push_back({site, std::string("expected error class ") + cls + ", none was raised"});
    lua_pushnil(L);
    return 1;
  }
  LuaFailure f = failure_from_value(L, -1);
  if (f.error_class != cls) {
    std::string got = f.error_class.empty() ? "a non-RMA error" : f.error_class;
    failures.push_back({site, std::string("expected error class ") + cls + ", got " + got + " (" +
                                  (f.where.empty() ? "" : f.where + ": ") + f.message + ")"});
    lua_pushnil(L);
  }
  return 1;
}

[[noreturn]] void raise_marker(lua_State* L, const char* kind, std::string message) {
  lua_createtable(L, 0, 3);
  lua_pushstring(L, kind);
  lua_setfield(L, -2, "rmabench");
  lua_pushlstring(L, message.data(), message.size());
  lua_setfield(L, -2, "message");
  const std::string w = where(L, 1);
  lua_pushlstring(L, w.data(), w.size());
  lua_setfield(L, -2, "where");
  lua_error(L);
  __builtin_unreachable();
}

}  // namespace

void push_counters_or_skip(lua_State* L, const std::optional<rma::Counters>& c) {
  if (c) return push_counters(L, *c);
  const RankContext& ctx = RankContext::of(L);
  raise_marker(L, "skip",
               "counters are not observable in " + (ctx.impl ? ctx.impl->name() : "this run") +
                   ": the case reads the reference implementation's counters");
}

namespace {

int l_fail(lua_State* L) {
  raise_marker(L, "fail", lua_isnoneornil(L, 1) ? "failed" : to_text(L, 1));
}
int l_skip(lua_State* L) {
  raise_marker(L, "skip", lua_isnoneornil(L, 1) ? "skipped" : to_text(L, 1));
}

// --- reporting and time -------------------------------------------------------------------

int l_log(lua_State* L) {
  std::string line;
  for (int i = 1; i <= lua_gettop(L); ++i) {
    if (i > 1) line += ' ';
    line += to_text(L, i);
  }
  RankContext& ctx = RankContext::of(L);
  if (ctx.log) ctx.log(line);
  return 0;
}

int l_now(lua_State* L) {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);  // one clock for every rank of the host
  lua_pushnumber(L, static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9);
  return 1;
}

int l_metric(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  const double v = luaL_checknumber(L, 2);
  // JSON has no NaN or infinity: the report would carry null, which is not a figure.
  if (!std::isfinite(v))
    return luaL_error(L, "rma.metric('%s', %s): the value must be a finite number", name,
                      lua_tostring(L, 2));
  RankContext::of(L).metrics[name] = v;
  return 0;
}

}  // namespace

namespace {

// t[field] = {name = count} for the non-zero counts of enum E, on the table on top of the stack.
template <class E, class Counts>
void set_counts(lua_State* L, const Counts& counts, int n, const char* field) {
  lua_newtable(L);
  for (int i = 0; i < n; ++i) {
    if (!counts[i]) continue;
    lua_pushinteger(L, static_cast<lua_Integer>(counts[i]));
    lua_setfield(L, -2, std::string(rma::to_string(static_cast<E>(i))).c_str());
  }
  lua_setfield(L, -2, field);
}

}  // namespace

void push_counters(lua_State* L, const rma::Counters& c) {
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, static_cast<lua_Integer>(c.rma_messages()));
  lua_setfield(L, -2, "rma");
  set_counts<rma::PacketType>(L, c.sent, rma::packet_type_count, "by_type");
  set_counts<rma::DirectOp>(L, c.direct, rma::direct_op_count, "direct");
  lua_newtable(L);
  for (const auto& [k, v] : c.transport) {
    lua_pushinteger(L, static_cast<lua_Integer>(v));
    lua_setfield(L, -2, k.c_str());
  }
  lua_setfield(L, -2, "transport");
  lua_newtable(L);
  for (const auto& [k, v] : c.protocol) {
    lua_pushinteger(L, static_cast<lua_Integer>(v));
    lua_setfield(L, -2, k.c_str());
  }
  lua_setfield(L, -2, "protocol");
}

namespace {

int l_counters(lua_State* L) {
  RankContext& ctx = RankContext::of(L);
  if (!ctx.impl) return luaL_error(L, "rma calls are only available inside a case's hooks");
  push_counters_or_skip(L, ctx.impl->counters());
  return 1;
}

// oracle(op, dtype, target, origin) -> op(target, origin) as the harness computes it
int l_oracle(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
  auto op = rma::parse_op(name);
  if (!op) raise_error(L, rma::ErrorClass::op, "oracle", unknown_name_message(NameKind::op, name));
  const rma::Dtype t = check_dtype(L, 2, "oracle");
  if (!rma::op_valid_for(*op, t))
    raise_error(L, rma::ErrorClass::op, "oracle",
                std::string(name) + " is not defined for " + std::string(rma::to_string(t)));
  Buffer tmp = make_buffer(2, t);
  // A pair takes two arguments per element: (value, index) for the target, then the origin.
  const int second = rma::is_pair(t) ? 5 : 4;
  store_value(L, t, 3, tmp.data);
  store_value(L, t, second, tmp.data + tmp.elem());
  oracle::apply(*op, t, tmp.data, tmp.data + tmp.elem(), 1);
  return push_element(L, tmp, 0);
}

// --- the table ----------------------------------------------------------------------------

// The names of E's values [first, last) as a Lua list.
template <class E, int First, int Last>
void push_names(lua_State* L, const char* field) {
  lua_createtable(L, Last - First, 0);
  for (int i = First; i < Last; ++i) {
    const auto name = rma::to_string(static_cast<E>(i));
    lua_pushlstring(L, name.data(), name.size());
    lua_rawseti(L, -2, i - First + 1);
  }
  lua_setfield(L, -2, field);
}

void push_constants(lua_State* L) {
  lua_pushinteger(L, rma::proc_null);
  lua_setfield(L, -2, "PROC_NULL");
  push_names<rma::Op, 0, rma::scalar_op_count>(L, "ops");
  push_names<rma::Dtype, 0, rma::scalar_dtype_count>(L, "dtypes");
  push_names<rma::Op, rma::scalar_op_count, rma::op_count>(L, "pair_ops");
  push_names<rma::Dtype, rma::scalar_dtype_count, rma::dtype_count>(L, "pair_dtypes");
  lua_createtable(L, 5, 0);
  int i = 1;
  for (const char* a : {"nocheck", "nostore", "noput", "noprecede", "nosucceed"}) {
    lua_pushstring(L, a);
    lua_rawseti(L, -2, i++);
  }
  lua_setfield(L, -2, "asserts");
  lua_newtable(L);
  lua_setfield(L, -2, "opt");
}

const luaL_Reg kFunctions[] = {
    {"buffer", guarded<lua_new_buffer>},
    {"expect", guarded<l_expect>},
    {"expect_eq", guarded<l_expect_eq>},
    {"expect_error", guarded<l_expect_error>},
    {"fail", l_fail},
    {"skip", l_skip},
    {"log", guarded<l_log>},
    {"now", l_now},
    {"metric", guarded<l_metric>},
    {"counters", guarded<l_counters>},
    {"oracle", guarded<l_oracle>},
    {nullptr, nullptr},
};

}  // namespace

RankContext& RankContext::of(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kCtxKey);
  auto* ctx = static_cast<RankContext*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  if (!ctx) luaL_error(L, "rma: no rank context");
  return *ctx;
}

void RankContext::install(lua_State* L) {
  lua_pushlightuserdata(L, this);
  lua_setfield(L, LUA_REGISTRYINDEX, kCtxKey);
}

namespace {
// The position as where(L, 1) spells it: the first frame up with a line (C frames skipped).
bool script_frame(lua_State* L, lua_Debug& ar) {
  for (int l = 1; lua_getstack(L, l, &ar); ++l) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline > 0) return true;
  }
  return false;
}
}  // namespace

WhereScope::WhereScope(RankContext& ctx, lua_State* L) : ctx_(ctx) {
  lua_Debug ar;
  if (script_frame(L, ar))
    ctx_.enter_call(ar.short_src, ar.currentline);
  else
    ctx_.enter_call(nullptr, 0);
}

std::string script_position(lua_State* L) {
  lua_Debug ar;
  if (!script_frame(L, ar)) return "?";
  return std::string(ar.short_src) + ":" + std::to_string(ar.currentline);
}

int check_rank(lua_State* L, int idx, const char* op) {
  const lua_Integer r = luaL_checkinteger(L, idx);
  if (r < std::numeric_limits<int>::min() || r > std::numeric_limits<int>::max())
    raise_error(L, rma::ErrorClass::rank, op, "rank " + std::to_string(r) + " is beyond an int");
  return static_cast<int>(r);
}

void raise_error(lua_State* L, rma::ErrorClass cls, const char* op, const std::string& message) {
  lua_createtable(L, 0, 4);
  const auto name = rma::class_name(cls);
  lua_pushlstring(L, name.data(), name.size());
  lua_setfield(L, -2, "class");
  lua_pushstring(L, op);
  lua_setfield(L, -2, "op");
  lua_pushlstring(L, message.data(), message.size());
  lua_setfield(L, -2, "message");
  const std::string w = where(L, 1);
  lua_pushlstring(L, w.data(), w.size());
  lua_setfield(L, -2, "where");
  // Printing the value (e.g. error() re-raised by a script) shows class and message.
  luaL_getmetatable(L, "rma.error");
  lua_setmetatable(L, -2);
  lua_error(L);
  __builtin_unreachable();
}

void raise_status(lua_State* L, const rma::Status& s, const char* op) {
  raise_error(L, s.error_class(), op, s.message());
}

void open_rma(lua_State* L, RankContext& ctx) {
  ctx.install(L);
  open_buffer(L);
  if (luaL_newmetatable(L, "rma.error")) {
    lua_pushcfunction(L, [](lua_State* S) -> int {
      lua_getfield(S, 1, "class");
      lua_pushstring(S, ": ");
      lua_getfield(S, 1, "message");
      lua_concat(S, 3);
      return 1;
    });
    lua_setfield(L, -2, "__tostring");
  }
  lua_pop(L, 1);
  luaL_newlib(L, kFunctions);
  add_calls(L, ctx, false);
  add_type_constructors(L);
  push_constants(L);
  lua_pushinteger(L, ctx.impl->rank());
  lua_setfield(L, -2, "rank");
  lua_pushinteger(L, ctx.impl->size());
  lua_setfield(L, -2, "size");
  lua_pushstring(L, ctx.backend.c_str());
  lua_setfield(L, -2, "backend");
  lua_pushstring(L, ctx.path.c_str());
  lua_setfield(L, -2, "path");
  lua_pushstring(L, ctx.progress.c_str());
  lua_setfield(L, -2, "progress");
  lua_pushstring(L, ctx.protocol.c_str());
  lua_setfield(L, -2, "protocol");
  lua_pushinteger(L, static_cast<lua_Integer>(ctx.impl->eager_limit()));
  lua_setfield(L, -2, "eager_limit");
  open_window(L, ctx);
  lua_setglobal(L, "rma");
  // os.exit must end the process at once: atexit handlers and static destructors would
  // race the progress agent. The parent reports the exit code as a crash.
  lua_getglobal(L, "os");
  lua_pushcfunction(L, [](lua_State* S) -> int {
    int code = lua_isboolean(S, 1) ? (lua_toboolean(S, 1) ? 0 : 1)
                                   : static_cast<int>(luaL_optinteger(S, 1, 0));
    std::fflush(nullptr);
    ::_exit(code);
  });
  lua_setfield(L, -2, "exit");
  lua_pop(L, 1);
}

void open_rma_descriptive(lua_State* L) {
  lua_newtable(L);
  push_constants(L);
  lua_setglobal(L, "rma");
}

namespace {

// rma.opt's __index, reached only for a name that has no value: an option the script did not
// declare (a misspelt `rma.opt.szie` would otherwise read nil and quietly change the case).
// Upvalue 1: the declared names, as a list.
int undeclared_option(lua_State* L) {
  std::vector<std::string> names;
  const lua_Integer n = luaL_len(L, lua_upvalueindex(1));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, lua_upvalueindex(1), i);
    names.emplace_back(lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  const std::vector<std::string_view> known(names.begin(), names.end());
  const std::string key = lua_type(L, 2) == LUA_TSTRING
                              ? "'" + std::string(lua_tostring(L, 2)) + "'"
                              : describe_value(L, 2);
  const std::string hint = known.empty() ? " (the script declares no options)"
                           : lua_type(L, 2) == LUA_TSTRING
                               ? unknown_name_hint(lua_tostring(L, 2), known, "declared")
                               : "";
  return luaL_error(L, "rma.opt: option %s is not declared in the script's `options`%s",
                    key.c_str(), hint.c_str());
}

}  // namespace

void set_options(lua_State* L, int case_idx, const std::map<std::string, std::string>& values) {
  case_idx = lua_absindex(L, case_idx);
  lua_getglobal(L, "rma");
  lua_newtable(L);  // rma.opt
  lua_newtable(L);  // the declared names, for undeclared_option
  const int declared = lua_gettop(L);
  lua_getfield(L, case_idx, "options");
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      // key at -2, {description, default} at -1
      const std::string name = lua_tostring(L, -2);
      lua_pushstring(L, name.c_str());
      lua_rawseti(L, declared, static_cast<lua_Integer>(luaL_len(L, declared)) + 1);
      lua_rawgeti(L, -1, 2);  // default
      auto it = values.find(name);
      if (it != values.end()) {
        const int type = lua_type(L, -1);
        lua_pop(L, 1);
        if (type == LUA_TBOOLEAN) {
          lua_pushboolean(L, it->second == "true");
        } else if (type == LUA_TNUMBER) {
          if (!lua_stringtonumber(L, it->second.c_str())) lua_pushnil(L);
        } else {
          lua_pushstring(L, it->second.c_str());
        }
      }
      lua_setfield(L, -6, name.c_str());  // rma.opt[name]
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  lua_newtable(L);  // rma.opt's metatable
  lua_pushvalue(L, declared);
  lua_pushcclosure(L, undeclared_option, 1);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -3);
  lua_pop(L, 1);  // the names: the closure keeps them
  lua_setfield(L, -2, "opt");
  lua_pop(L, 1);
}

}  // namespace harness::lua
