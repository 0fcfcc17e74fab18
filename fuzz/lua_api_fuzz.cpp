// lua_api_fuzz — the `rma` Lua API's argument parsing: the input is a sequence of calls, each
// a function of the `rma` table, a window method, a buffer method or a request method, with
// arguments drawn from a pool of awkward values (nil, extreme integers, NaN, names, wrong
// types, buffers of every dtype, windows). Each call runs under pcall on one rank of the
// reference implementation (shm, progress `calls`): an error value or success, never a
// crash. Calls that would wait forever on a one-rank job (recv, a PSCW wait or complete
// with nobody to match) are left out: they block by design.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "impl/ref_implementation.hpp"
#include "lua/lua_rma.hpp"
#include "lua/lua_state.hpp"
#include "lua/rank_context.hpp"
#include "solo_bootstrap.hpp"

namespace {

// The functions called by name: rma.<f>, and methods of the objects in the pool.
const std::vector<std::string> kRmaFunctions = {
    "window", "barrier", "buffer",   "expect", "expect_eq", "expect_error", "log",
    "now",    "metric",  "counters", "oracle", "fail",      "skip"};
const std::vector<std::string> kWindowMethods = {"put",          "get",
                                                 "accumulate",   "get_accumulate",
                                                 "fetch_and_op", "compare_and_swap",
                                                 "rput",         "rget",
                                                 "raccumulate",  "rget_accumulate",
                                                 "fence",        "post",
                                                 "start",        "test",
                                                 "lock",         "unlock",
                                                 "lock_all",     "unlock_all",
                                                 "flush",        "flush_local",
                                                 "flush_all",    "flush_local_all",
                                                 "sync",         "attach",
                                                 "detach",       "local_buffer",
                                                 "shared_query", "free",
                                                 "id",           "path",
                                                 "flavor",       "size",
                                                 "counters"};
const std::vector<std::string> kBufferMethods = {"fill",     "iota",      "get",   "set",   "sub",
                                                 "checksum", "equals",    "count", "bytes", "dtype",
                                                 "copy",     "copy_from", "apply"};

// The Lua prelude: a pool of values `P` the calls draw from (objects are added as calls
// return them).
const char* kPrelude = R"(
P = { false, true, 0, 1, -1, 2, 3, 4, 7, 8, 16, 255, 256, 65536, 1048576,
      math.maxinteger, math.mininteger, 0.5, -0.0, 1e300, 0/0, 1/0,
      "", "sum", "no_op", "replace", "band", "i32", "u8", "f64", "u64", "x", "exclusive",
      "shared", "nocheck", "nosucceed", "noprecede", "allocate", "create", "dynamic",
      "shared", "am", "direct", "auto", "RMA_SYNC",
      {}, {0}, {0, 0}, {1}, {-1}, {"nocheck", "noput"}, { size = 64 },
      { size = 64, disp_unit = 4, flavor = "create" }, { flavor = "dynamic" },
      { size = 8, flavor = "shared" }, { size = 0 }, { size = 32, path = "direct" },
      { size = 16, info = { no_locks = "true" } }, { size = -1 }, { size = 1e20 },
      { size = 16, info = { accumulate_ordering = "bogus" } }, function() end }
for _, d in ipairs(rma.dtypes) do
  P[#P + 1] = rma.buffer(4, d)
  P[#P + 1] = rma.buffer(0, d)
end
P[#P + 1] = rma.window{ size = 64 }
P[#P + 1] = rma.window{ flavor = "dynamic" }
P[#P + 1] = rma.PROC_NULL
function CALL(kind, name, target, ...)
  local ok, r = pcall(function(...)
    if kind == 0 then return rma[name](...) end
    local obj = P[target]
    local m = obj and (type(obj) == "userdata" or type(obj) == "table") and obj[name]
    if type(m) ~= "function" then return nil end
    return m(obj, ...)
  end, ...)
  if ok and r ~= nil and #P < 200 then P[#P + 1] = r end
end
)";

struct World {
  rmabench_fuzz::SoloBootstrap boot;
  std::unique_ptr<harness::impl::Implementation> impl;
  harness::lua::RankContext ctx;

  World() {
    rma::RuntimeConfig cfg;
    cfg.backend = "shm";
    cfg.progress = rma::ProgressMode::calls;
    cfg.name_prefix = "rmafuzz" + std::to_string(::getpid());
    auto r = harness::impl::make_reference(cfg, boot);
    if (!r) std::abort();
    impl = std::move(*r);
    ctx.impl = impl.get();
    ctx.backend = "shm";
    ctx.path = "am";
    ctx.progress = "calls";
    ctx.log = [](const std::string&) {};
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static World* w = new World();
  harness::lua::LuaState st;
  lua_State* L = st.get();
  harness::lua::open_rma(L, w->ctx);
  if (luaL_dostring(L, kPrelude) != LUA_OK) std::abort();
  std::size_t i = 0;
  auto next = [&]() -> std::uint8_t { return i < size ? data[i++] : 0; };
  int calls = 0;
  while (i < size && calls++ < 64) {
    const std::uint8_t sel = next();
    const int kind = sel % 3;
    const auto& names = kind == 0 ? kRmaFunctions : kind == 1 ? kWindowMethods : kBufferMethods;
    const std::string& name = names[next() % names.size()];
    const int nargs = next() % 7;
    lua_getglobal(L, "CALL");
    lua_pushinteger(L, kind);
    lua_pushstring(L, name.c_str());
    lua_getglobal(L, "P");
    const lua_Integer pool = static_cast<lua_Integer>(lua_rawlen(L, -1));
    lua_pop(L, 1);
    lua_pushinteger(L, 1 + next() % pool);  // the object a method is called on
    lua_getglobal(L, "P");
    for (int a = 0; a < nargs; ++a) {
      const std::uint8_t v = next();
      if (v == 0) {
        lua_pushnil(L);
      } else {
        lua_rawgeti(L, -1 - a, 1 + v % pool);
      }
    }
    // Move the pool table out of the argument list.
    lua_remove(L, -1 - nargs);
    if (lua_pcall(L, 3 + nargs, 0, 0) != LUA_OK) lua_pop(L, 1);
  }
  // Leave no epoch open for the next input: free every window the pool holds (errors are
  // fine: a window in an epoch stays, and the next input's windows are new ones).
  (void)luaL_dostring(L,
                      "for _, v in ipairs(P) do pcall(function() v:unlock_all() end) "
                      "pcall(function() v:fence('nosucceed') end) end");
  return 0;
}
