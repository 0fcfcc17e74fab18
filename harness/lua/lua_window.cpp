#include "lua/lua_window.hpp"

#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "bench/op_program.hpp"
#include "lua/lua_buffer.hpp"
#include "lua/lua_guard.hpp"
#include "lua/lua_rma.hpp"
#include "lua/rank_context.hpp"
#include "rma/runtime.hpp"
#include "rma/window.hpp"

namespace harness::lua {
namespace {

constexpr const char* kWinMeta = "rma.window";
constexpr const char* kReqMeta = "rma.request";
constexpr int kAllTargets = -100;

struct LuaWindow {
  rma::Window* win = nullptr;
  std::shared_ptr<void> user_memory;  // the buffer a create window was made over
  // Buffers of ops not yet known complete, by target: released by the synchronization that
  // completes them.
  std::map<int, std::vector<std::shared_ptr<void>>> pinned;

  void pin(int target, const Buffer& b) { pinned[target].push_back(b.keeper); }
  void unpin(int target) {
    if (target == kAllTargets) pinned.clear();
    else pinned.erase(target);
  }
};

struct LuaRequest {
  rma::Request req;
  std::vector<std::shared_ptr<void>> pinned;
};

using Kind = bench::RecordedCall::Kind;

// Appends a call to the op program being recorded, if any.
void record(lua_State* L, bench::RecordedCall c, std::vector<std::shared_ptr<void>> keep = {}) {
  if (auto* p = RankContext::of(L).recorder) p->add(std::move(c), std::move(keep));
}

bench::RecordedCall call(Kind k, rma::Window* w) {
  bench::RecordedCall c;
  c.kind = k;
  c.win = w;
  return c;
}

LuaWindow& check_window(lua_State* L) {
  return *static_cast<LuaWindow*>(luaL_checkudata(L, 1, kWinMeta));
}

rma::Window& win_of(lua_State* L) { return *check_window(L).win; }

int check_rank(lua_State* L, int idx) { return static_cast<int>(luaL_checkinteger(L, idx)); }

std::uint64_t check_disp(lua_State* L, int idx) {
  const lua_Integer d = luaL_optinteger(L, idx, 0);
  if (d < 0)
    raise_error(L, rma::ErrorClass::disp, "displacement",
                "target displacement " + std::to_string(d) + " is negative");
  return static_cast<std::uint64_t>(d);
}

rma::Op check_op(lua_State* L, int idx, const char* call) {
  const char* name = luaL_checkstring(L, idx);
  auto op = rma::parse_op(name);
  if (!op) raise_error(L, rma::ErrorClass::op, call, std::string("unknown op '") + name + "'");
  return *op;
}

unsigned check_asserts(lua_State* L, int idx, const char* call) {
  unsigned bits = 0;
  auto add = [&](const char* name) {
    auto a = rma::parse_assert(name);
    if (!a) raise_error(L, rma::ErrorClass::assert_, call, std::string("unknown assert '") + name + "'");
    bits |= *a;
  };
  if (lua_isnoneornil(L, idx)) return 0;
  if (lua_type(L, idx) == LUA_TSTRING) {
    add(lua_tostring(L, idx));
  } else if (lua_istable(L, idx)) {
    const lua_Integer n = luaL_len(L, idx);
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, idx, i);
      add(luaL_checkstring(L, -1));
      lua_pop(L, 1);
    }
  } else {
    luaL_error(L, "%s: asserts must be a string or a list of strings", call);
  }
  return bits;
}

std::vector<int> check_group(lua_State* L, int idx) {
  luaL_checktype(L, idx, LUA_TTABLE);
  std::vector<int> g;
  const lua_Integer n = luaL_len(L, idx);
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);
    g.push_back(static_cast<int>(luaL_checkinteger(L, -1)));
    lua_pop(L, 1);
  }
  return g;
}

void check_same_dtype(lua_State* L, const Buffer& a, const Buffer& b, const char* call) {
  if (a.dtype != b.dtype || a.count != b.count)
    raise_error(L, rma::ErrorClass::arg, call, "origin and result buffers differ in dtype or count");
}

// --- communication ------------------------------------------------------------------------

int w_put(lua_State* L) {
  LuaWindow& lw = check_window(L);
  Buffer& b = check_buffer(L, 2);
  const int target = check_rank(L, 3);
  const std::uint64_t disp = check_disp(L, 4);
  check(L, lw.win->put(b.data, b.count, b.dtype, target, disp), "put");
  lw.pin(target, b);
  auto c = call(Kind::put, lw.win);
  c.origin = b.data, c.count = b.count, c.dtype = b.dtype, c.target = target, c.disp = disp;
  record(L, c, {b.keeper});
  return 0;
}

int w_get(lua_State* L) {
  LuaWindow& lw = check_window(L);
  Buffer& b = check_buffer(L, 2);
  const int target = check_rank(L, 3);
  const std::uint64_t disp = check_disp(L, 4);
  check(L, lw.win->get(b.data, b.count, b.dtype, target, disp), "get");
  lw.pin(target, b);
  auto c = call(Kind::get, lw.win);
  c.result = b.data, c.count = b.count, c.dtype = b.dtype, c.target = target, c.disp = disp;
  record(L, c, {b.keeper});
  return 0;
}

int w_accumulate(lua_State* L) {
  LuaWindow& lw = check_window(L);
  Buffer& b = check_buffer(L, 2);
  const int target = check_rank(L, 3);
  const rma::Op op = check_op(L, 5, "accumulate");
  const std::uint64_t disp = check_disp(L, 4);
  check(L, lw.win->accumulate(b.data, b.count, b.dtype, target, disp, op), "accumulate");
  lw.pin(target, b);
  auto c = call(Kind::accumulate, lw.win);
  c.origin = b.data, c.count = b.count, c.dtype = b.dtype, c.target = target, c.disp = disp;
  c.op = op;
  record(L, c, {b.keeper});
  return 0;
}

int w_get_accumulate(lua_State* L) {
  LuaWindow& lw = check_window(L);
  Buffer* origin = lua_isnil(L, 2) ? nullptr : &check_buffer(L, 2);
  Buffer& result = check_buffer(L, 3);
  const int target = check_rank(L, 4);
  const rma::Op op = check_op(L, 6, "get_accumulate");
  if (origin) check_same_dtype(L, *origin, result, "get_accumulate");
  const std::uint64_t disp = check_disp(L, 5);
  check(L,
        lw.win->get_accumulate(origin ? origin->data : nullptr, result.data, result.count,
                               result.dtype, target, disp, op),
        "get_accumulate");
  if (origin) lw.pin(target, *origin);
  lw.pin(target, result);
  auto c = call(Kind::get_accumulate, lw.win);
  c.origin = origin ? origin->data : nullptr, c.result = result.data, c.count = result.count;
  c.dtype = result.dtype, c.target = target, c.disp = disp, c.op = op;
  record(L, c, {origin ? origin->keeper : nullptr, result.keeper});
  return 0;
}

// fetch_and_op(value, target, disp, op, dtype [, result]) -> old value
// Without a result buffer the call completes the op (flush_local) and returns the old value,
// which needs a lock or lock_all epoch; with one it is an ordinary, deferred op.
int w_fetch_and_op(lua_State* L) {
  LuaWindow& lw = check_window(L);
  const int target = check_rank(L, 3);
  const std::uint64_t disp = check_disp(L, 4);
  const rma::Op op = check_op(L, 5, "fetch_and_op");
  const rma::Dtype t = check_dtype(L, 6, "fetch_and_op");
  Buffer operand = make_buffer(1, t);
  if (op != rma::Op::no_op || !lua_isnoneornil(L, 2)) store_value(L, t, 2, operand.data);
  if (Buffer* result = test_buffer(L, 7)) {
    check(L, lw.win->fetch_and_op(operand.data, result->data, t, target, disp, op), "fetch_and_op");
    lw.pin(target, operand);
    lw.pin(target, *result);
    auto c = call(Kind::fetch_and_op, lw.win);
    c.origin = operand.data, c.result = result->data, c.dtype = t, c.target = target;
    c.disp = disp, c.op = op;
    record(L, c, {operand.keeper, result->keeper});
    return 0;
  }
  if (!lw.win->passive_access())
    raise_error(L, rma::ErrorClass::rma_sync, "fetch_and_op",
                "returning the old value needs a lock or lock_all epoch; pass a result buffer "
                "under fence or start");
  Buffer old = make_buffer(1, t);
  WhereScope w(RankContext::of(L), L);
  check(L, lw.win->fetch_and_op(operand.data, old.data, t, target, disp, op), "fetch_and_op");
  if (target != rma::proc_null) check(L, lw.win->flush_local(target), "fetch_and_op");
  auto c = call(Kind::fetch_and_op, lw.win);
  c.origin = operand.data, c.result = old.data, c.dtype = t, c.target = target;
  c.disp = disp, c.op = op;
  record(L, c, {operand.keeper, old.keeper});
  if (target != rma::proc_null) {
    auto f = call(Kind::flush_local, lw.win);
    f.target = target;
    record(L, f);
  }
  push_element(L, old, 0);
  return 1;
}

// compare_and_swap(compare, value, target, disp, dtype [, result]) -> old value
int w_compare_and_swap(lua_State* L) {
  LuaWindow& lw = check_window(L);
  const int target = check_rank(L, 4);
  const std::uint64_t disp = check_disp(L, 5);
  const rma::Dtype t = check_dtype(L, 6, "compare_and_swap");
  Buffer operands = make_buffer(2, t);  // [value, compare]
  store_value(L, t, 2, operands.data + operands.elem());
  store_value(L, t, 3, operands.data);
  if (Buffer* result = test_buffer(L, 7)) {
    check(L,
          lw.win->compare_and_swap(operands.data, operands.data + operands.elem(), result->data,
                                   t, target, disp),
          "compare_and_swap");
    lw.pin(target, operands);
    lw.pin(target, *result);
    auto c = call(Kind::compare_and_swap, lw.win);
    c.origin = operands.data, c.compare = operands.data + operands.elem();
    c.result = result->data, c.dtype = t, c.target = target, c.disp = disp;
    record(L, c, {operands.keeper, result->keeper});
    return 0;
  }
  if (!lw.win->passive_access())
    raise_error(L, rma::ErrorClass::rma_sync, "compare_and_swap",
                "returning the old value needs a lock or lock_all epoch; pass a result buffer "
                "under fence or start");
  Buffer old = make_buffer(1, t);
  WhereScope w(RankContext::of(L), L);
  check(L,
        lw.win->compare_and_swap(operands.data, operands.data + operands.elem(), old.data, t,
                                 target, disp),
        "compare_and_swap");
  if (target != rma::proc_null) check(L, lw.win->flush_local(target), "compare_and_swap");
  auto c = call(Kind::compare_and_swap, lw.win);
  c.origin = operands.data, c.compare = operands.data + operands.elem();
  c.result = old.data, c.dtype = t, c.target = target, c.disp = disp;
  record(L, c, {operands.keeper, old.keeper});
  if (target != rma::proc_null) {
    auto f = call(Kind::flush_local, lw.win);
    f.target = target;
    record(L, f);
  }
  push_element(L, old, 0);
  return 1;
}

void push_request(lua_State* L, rma::Request req, std::vector<std::shared_ptr<void>> pins) {
  void* mem = lua_newuserdatauv(L, sizeof(LuaRequest), 0);
  new (mem) LuaRequest{std::move(req), std::move(pins)};
  luaL_setmetatable(L, kReqMeta);
}

int w_rput(lua_State* L) {
  LuaWindow& lw = check_window(L);
  Buffer& b = check_buffer(L, 2);
  const int target = check_rank(L, 3);
  const std::uint64_t disp = check_disp(L, 4);
  auto r = lw.win->rput(b.data, b.count, b.dtype, target, disp);
  if (!r) raise_status(L, r.status(), "rput");
  auto c = call(Kind::rput, lw.win);
  c.origin = b.data, c.count = b.count, c.dtype = b.dtype, c.target = target, c.disp = disp;
  record(L, c, {b.keeper});
  push_request(L, std::move(r.value()), {b.keeper});
  return 1;
}

int w_rget(lua_State* L) {
  LuaWindow& lw = check_window(L);
  Buffer& b = check_buffer(L, 2);
  const int target = check_rank(L, 3);
  const std::uint64_t disp = check_disp(L, 4);
  auto r = lw.win->rget(b.data, b.count, b.dtype, target, disp);
  if (!r) raise_status(L, r.status(), "rget");
  auto c = call(Kind::rget, lw.win);
  c.result = b.data, c.count = b.count, c.dtype = b.dtype, c.target = target, c.disp = disp;
  record(L, c, {b.keeper});
  push_request(L, std::move(r.value()), {b.keeper});
  return 1;
}

int w_raccumulate(lua_State* L) {
  LuaWindow& lw = check_window(L);
  Buffer& b = check_buffer(L, 2);
  const rma::Op op = check_op(L, 5, "raccumulate");
  const int target = check_rank(L, 3);
  const std::uint64_t disp = check_disp(L, 4);
  auto r = lw.win->raccumulate(b.data, b.count, b.dtype, target, disp, op);
  if (!r) raise_status(L, r.status(), "raccumulate");
  auto c = call(Kind::raccumulate, lw.win);
  c.origin = b.data, c.count = b.count, c.dtype = b.dtype, c.target = target, c.disp = disp;
  c.op = op;
  record(L, c, {b.keeper});
  push_request(L, std::move(r.value()), {b.keeper});
  return 1;
}

int w_rget_accumulate(lua_State* L) {
  LuaWindow& lw = check_window(L);
  Buffer* origin = lua_isnil(L, 2) ? nullptr : &check_buffer(L, 2);
  Buffer& result = check_buffer(L, 3);
  const rma::Op op = check_op(L, 6, "rget_accumulate");
  if (origin) check_same_dtype(L, *origin, result, "rget_accumulate");
  const int target = check_rank(L, 4);
  const std::uint64_t disp = check_disp(L, 5);
  auto r = lw.win->rget_accumulate(origin ? origin->data : nullptr, result.data, result.count,
                                   result.dtype, target, disp, op);
  if (!r) raise_status(L, r.status(), "rget_accumulate");
  auto c = call(Kind::rget_accumulate, lw.win);
  c.origin = origin ? origin->data : nullptr, c.result = result.data, c.count = result.count;
  c.dtype = result.dtype, c.target = target, c.disp = disp, c.op = op;
  record(L, c, {origin ? origin->keeper : nullptr, result.keeper});
  std::vector<std::shared_ptr<void>> pins{result.keeper};
  if (origin) pins.push_back(origin->keeper);
  push_request(L, std::move(r.value()), std::move(pins));
  return 1;
}

int req_wait(lua_State* L) {
  auto& r = *static_cast<LuaRequest*>(luaL_checkudata(L, 1, kReqMeta));
  WhereScope w(RankContext::of(L), L);
  check(L, r.req.wait(), "wait");
  r.pinned.clear();
  return 0;
}

int req_test(lua_State* L) {
  auto& r = *static_cast<LuaRequest*>(luaL_checkudata(L, 1, kReqMeta));
  auto done = r.req.test();
  if (!done) raise_status(L, done.status(), "test");
  if (*done) r.pinned.clear();
  lua_pushboolean(L, *done);
  return 1;
}

int req_gc(lua_State* L) {
  static_cast<LuaRequest*>(luaL_checkudata(L, 1, kReqMeta))->~LuaRequest();
  return 0;
}

// --- synchronization ------------------------------------------------------------------------

// Runs a synchronization call with the script position recorded (it may block) and releases
// the buffers it completed.
template <class F>
int sync_call(lua_State* L, const char* name, int completes, bench::RecordedCall rc, F&& fn) {
  LuaWindow& lw = check_window(L);
  rma::Status s;
  {
    WhereScope w(RankContext::of(L), L);
    s = fn(*lw.win);
  }
  check(L, s, name);
  if (completes != -1) lw.unpin(completes);
  rc.win = lw.win;
  record(L, std::move(rc));
  return 0;
}

bench::RecordedCall sync_rec(Kind k, int target = 0, unsigned asserts = 0,
                             std::vector<int> group = {}) {
  bench::RecordedCall c;
  c.kind = k;
  c.target = target;
  c.asserts = asserts;
  c.group = std::move(group);
  return c;
}

int w_fence(lua_State* L) {
  const unsigned a = check_asserts(L, 2, "fence");
  return sync_call(L, "fence", kAllTargets, sync_rec(Kind::fence, 0, a),
                   [&](rma::Window& w) { return w.fence(a); });
}

int w_post(lua_State* L) {
  auto g = check_group(L, 2);
  const unsigned a = check_asserts(L, 3, "post");
  return sync_call(L, "post", -1, sync_rec(Kind::post, 0, a, g),
                   [&](rma::Window& w) { return w.post(g, a); });
}

int w_start(lua_State* L) {
  auto g = check_group(L, 2);
  const unsigned a = check_asserts(L, 3, "start");
  return sync_call(L, "start", -1, sync_rec(Kind::start, 0, a, g),
                   [&](rma::Window& w) { return w.start(g, a); });
}

int w_complete(lua_State* L) {
  return sync_call(L, "complete", kAllTargets, sync_rec(Kind::complete),
                   [](rma::Window& w) { return w.complete(); });
}

int w_wait(lua_State* L) {
  return sync_call(L, "wait", -1, sync_rec(Kind::wait), [](rma::Window& w) { return w.wait(); });
}

int w_test(lua_State* L) {
  auto r = win_of(L).test();
  if (!r) raise_status(L, r.status(), "test");
  lua_pushboolean(L, *r);
  return 1;
}

int w_lock(lua_State* L) {
  const int target = check_rank(L, 2);
  rma::LockType type = rma::LockType::exclusive;
  if (!lua_isnoneornil(L, 3)) {
    const char* name = luaL_checkstring(L, 3);
    auto t = rma::parse_lock_type(name);
    if (!t)
      raise_error(L, rma::ErrorClass::locktype, "lock",
                  std::string("lock type '") + name + "' is neither exclusive nor shared");
    type = *t;
  }
  const unsigned a = check_asserts(L, 4, "lock");
  auto rc = sync_rec(Kind::lock, target, a);
  rc.lock_type = type;
  return sync_call(L, "lock", -1, rc, [&](rma::Window& w) { return w.lock(type, target, a); });
}

int w_unlock(lua_State* L) {
  const int target = check_rank(L, 2);
  return sync_call(L, "unlock", target, sync_rec(Kind::unlock, target),
                   [&](rma::Window& w) { return w.unlock(target); });
}

int w_lock_all(lua_State* L) {
  const unsigned a = check_asserts(L, 2, "lock_all");
  return sync_call(L, "lock_all", -1, sync_rec(Kind::lock_all, 0, a),
                   [&](rma::Window& w) { return w.lock_all(a); });
}

int w_unlock_all(lua_State* L) {
  return sync_call(L, "unlock_all", kAllTargets, sync_rec(Kind::unlock_all),
                   [](rma::Window& w) { return w.unlock_all(); });
}

int w_flush(lua_State* L) {
  const int target = check_rank(L, 2);
  return sync_call(L, "flush", target, sync_rec(Kind::flush, target),
                   [&](rma::Window& w) { return w.flush(target); });
}

int w_flush_local(lua_State* L) {
  const int target = check_rank(L, 2);
  return sync_call(L, "flush_local", target, sync_rec(Kind::flush_local, target),
                   [&](rma::Window& w) { return w.flush_local(target); });
}

int w_flush_all(lua_State* L) {
  return sync_call(L, "flush_all", kAllTargets, sync_rec(Kind::flush_all),
                   [](rma::Window& w) { return w.flush_all(); });
}

int w_flush_local_all(lua_State* L) {
  return sync_call(L, "flush_local_all", kAllTargets, sync_rec(Kind::flush_local_all),
                   [](rma::Window& w) { return w.flush_local_all(); });
}

int w_sync(lua_State* L) {
  return sync_call(L, "sync", -1, sync_rec(Kind::sync), [](rma::Window& w) { return w.sync(); });
}

int w_free(lua_State* L) {
  if (RankContext::of(L).recorder)
    luaL_error(L, "free inside a benchmarked run hook: windows must outlive the replays");
  LuaWindow& lw = check_window(L);
  {
    WhereScope w(RankContext::of(L), L);
    check(L, lw.win->free(), "free");
  }
  lw.unpin(kAllTargets);
  return 0;
}

// --- memory -----------------------------------------------------------------------------------

// attach(buf) -> the displacement (address) peers use for the buffer's first element
int w_attach(lua_State* L) {
  LuaWindow& lw = check_window(L);
  Buffer& b = check_buffer(L, 2);
  check(L, lw.win->attach(b.data, b.bytes()), "attach");
  lw.pinned[-1].push_back(b.keeper);  // attached memory must outlive the attachment
  lua_pushinteger(L, static_cast<lua_Integer>(reinterpret_cast<std::uintptr_t>(b.data)));
  return 1;
}

int w_detach(lua_State* L) {
  LuaWindow& lw = check_window(L);
  Buffer& b = check_buffer(L, 2);
  check(L, lw.win->detach(b.data), "detach");
  return 0;
}

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
  const int rank = check_rank(L, 2);
  const rma::Dtype t = lua_isnoneornil(L, 3) ? rma::Dtype::u8 : check_dtype(L, 3, "shared_query");
  auto r = lw.win->shared_query(rank);
  if (!r) raise_status(L, r.status(), "shared_query");
  auto keeper = r->keeper;
  if (!keeper) keeper = lw.user_memory ? lw.user_memory : lw.win->memory_keeper();
  push_buffer(L, view(std::move(keeper), r->base, r->size, t));
  return 1;
}

// --- introspection ------------------------------------------------------------------------------

int w_id(lua_State* L) {
  lua_pushinteger(L, win_of(L).id());
  return 1;
}

int w_path(lua_State* L) {
  const auto p = rma::to_string(win_of(L).path());
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
  push_counters(L, win_of(L).counters());
  return 1;
}

int w_gc(lua_State* L) {
  static_cast<LuaWindow*>(luaL_checkudata(L, 1, kWinMeta))->~LuaWindow();
  return 0;
}

int w_tostring(lua_State* L) {
  rma::Window& w = win_of(L);
  const std::string s = "rma.window(" + std::to_string(w.id()) + ", " +
                        std::string(rma::to_string(w.flavor())) + ", " + w.path_detail() + ")";
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

// --- creation -------------------------------------------------------------------------------------

std::string field_text(lua_State* L, int idx) {
  if (lua_type(L, idx) == LUA_TBOOLEAN) return lua_toboolean(L, idx) ? "true" : "false";
  if (lua_type(L, idx) == LUA_TNUMBER || lua_type(L, idx) == LUA_TSTRING) return lua_tostring(L, idx);
  luaL_error(L, "window: info values must be strings, numbers or booleans");
  return {};
}

// rma.window{ size=, disp_unit=, flavor=, info={...}, path=, memory=buffer }
int l_window(lua_State* L) {
  RankContext& ctx = RankContext::of(L);
  if (!ctx.rt) return luaL_error(L, "rma.window is only available inside a case's hooks");
  luaL_checktype(L, 1, LUA_TTABLE);
  rma::WindowConfig cfg;
  LuaWindow lw;

  lua_getfield(L, 1, "flavor");
  if (!lua_isnil(L, -1)) {
    const char* f = luaL_checkstring(L, -1);
    auto fl = rma::parse_flavor(f);
    if (!fl)
      raise_error(L, rma::ErrorClass::rma_flavor, "window",
                  std::string("unknown flavor '") + f + "' (create, allocate, shared, dynamic)");
    cfg.flavor = *fl;
  }
  lua_pop(L, 1);

  lua_getfield(L, 1, "memory");
  Buffer* memory = test_buffer(L, -1);
  lua_pop(L, 1);

  lua_getfield(L, 1, "size");
  if (!lua_isnil(L, -1)) {
    const lua_Integer sz = luaL_checkinteger(L, -1);
    if (sz < 0) raise_error(L, rma::ErrorClass::size, "window", "size is negative");
    cfg.size = static_cast<std::size_t>(sz);
  } else if (memory) {
    cfg.size = memory->bytes();
  }
  lua_pop(L, 1);

  lua_getfield(L, 1, "disp_unit");
  if (!lua_isnil(L, -1)) cfg.disp_unit = static_cast<int>(luaL_checkinteger(L, -1));
  lua_pop(L, 1);

  lua_getfield(L, 1, "info");
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) == LUA_TSTRING) cfg.info[lua_tostring(L, -2)] = field_text(L, -1);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);

  lua_getfield(L, 1, "path");
  if (!lua_isnil(L, -1)) cfg.info["path"] = luaL_checkstring(L, -1);
  lua_pop(L, 1);

  if (cfg.flavor == rma::Flavor::create) {
    if (memory) {
      if (memory->bytes() < cfg.size)
        raise_error(L, rma::ErrorClass::size, "window", "memory buffer is smaller than size");
      cfg.base = memory->data;
      lw.user_memory = memory->keeper;
    } else {
      // Memory the runtime can share (MPI_Alloc_mem), owned by this window's handle.
      auto mem = ctx.rt->alloc_mem(cfg.size);
      if (!mem) raise_status(L, mem.status(), "window");
      rma::Runtime* rt = ctx.rt;
      void* base = mem.value();
      cfg.base = base;
      lw.user_memory = std::shared_ptr<void>(base, [rt](void* p) { (void)rt->free_mem(p); });
    }
  }

  WhereScope w(ctx, L);
  auto win = ctx.rt->create_window(cfg);
  if (!win) raise_status(L, win.status(), "window");
  lw.win = win.value();
  ctx.paths.insert(std::string(rma::to_string(lw.win->path())));
  void* mem = lua_newuserdatauv(L, sizeof(LuaWindow), 0);
  new (mem) LuaWindow(std::move(lw));
  luaL_setmetatable(L, kWinMeta);
  return 1;
}

const luaL_Reg kWinMethods[] = {
    {"put", guarded<w_put>},
    {"get", guarded<w_get>},
    {"accumulate", guarded<w_accumulate>},
    {"get_accumulate", guarded<w_get_accumulate>},
    {"fetch_and_op", guarded<w_fetch_and_op>},
    {"compare_and_swap", guarded<w_compare_and_swap>},
    {"rput", guarded<w_rput>},
    {"rget", guarded<w_rget>},
    {"raccumulate", guarded<w_raccumulate>},
    {"rget_accumulate", guarded<w_rget_accumulate>},
    {"fence", guarded<w_fence>},
    {"post", guarded<w_post>},
    {"start", guarded<w_start>},
    {"complete", guarded<w_complete>},
    {"wait", guarded<w_wait>},
    {"test", guarded<w_test>},
    {"lock", guarded<w_lock>},
    {"unlock", guarded<w_unlock>},
    {"lock_all", guarded<w_lock_all>},
    {"unlock_all", guarded<w_unlock_all>},
    {"flush", guarded<w_flush>},
    {"flush_local", guarded<w_flush_local>},
    {"flush_all", guarded<w_flush_all>},
    {"flush_local_all", guarded<w_flush_local_all>},
    {"sync", guarded<w_sync>},
    {"attach", guarded<w_attach>},
    {"detach", guarded<w_detach>},
    {"local_buffer", guarded<w_local_buffer>},
    {"shared_query", guarded<w_shared_query>},
    {"free", guarded<w_free>},
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

void open_window(lua_State* L) {
  luaL_newmetatable(L, kWinMeta);
  luaL_newlib(L, kWinMethods);
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
