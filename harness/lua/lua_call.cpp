// lua_call.cpp — the generic call binding (see lua_call.hpp). Argument checks raise the error
// classes MPI would (DISP, OP, ASSERT, LOCKTYPE, TYPE, ARG) with the call's name.
#include "lua/lua_call.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "call/call.hpp"
#include "lua/lua_buffer.hpp"
#include "lua/lua_fields.hpp"
#include "lua/lua_guard.hpp"
#include "lua/lua_type.hpp"
#include "lua/lua_window.hpp"
#include "races/recorder.hpp"
#include "rma/trace.hpp"

namespace harness::lua {
namespace {

using call::Arg;
using call::Completes;
using call::Family;
using call::Kind;

// A binding's upvalues: the rank context, and the metatables of windows and buffers (checking
// an argument against them is cheaper than luaL_checkudata's lookup by name).
constexpr int kCtxUpvalue = 1, kWindowMetaUpvalue = 2, kBufferMetaUpvalue = 3;

RankContext& bound_context(lua_State* L) {
  return *static_cast<RankContext*>(lua_touserdata(L, lua_upvalueindex(kCtxUpvalue)));
}

// The userdata at `idx` if its metatable is the upvalue's, else null.
template <class T>
T* bound_udata(lua_State* L, int idx, int upvalue) {
  void* p = lua_touserdata(L, idx);
  if (!p || !lua_getmetatable(L, idx)) return nullptr;
  const bool same = lua_rawequal(L, -1, lua_upvalueindex(upvalue));
  lua_pop(L, 1);
  return same ? static_cast<T*>(p) : nullptr;
}

// As check_buffer / test_buffer (whose errors a wrong argument gets).
Buffer& arg_buffer(lua_State* L, int idx) {
  if (Buffer* b = bound_udata<Buffer>(L, idx, kBufferMetaUpvalue)) return *b;
  return check_buffer(L, idx);
}
Buffer* arg_buffer_or_null(lua_State* L, int idx) {
  if (Buffer* b = bound_udata<Buffer>(L, idx, kBufferMetaUpvalue)) return b;
  return test_buffer(L, idx);
}

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
  if (!op) raise_error(L, rma::ErrorClass::op, call, unknown_name_message(NameKind::op, name));
  return *op;
}

rma::LockType check_lock_type(lua_State* L, int idx, const char* call) {
  if (lua_isnoneornil(L, idx)) return rma::LockType::exclusive;
  const char* name = luaL_checkstring(L, idx);
  auto t = rma::parse_lock_type(name);
  if (!t)
    raise_error(L, rma::ErrorClass::locktype, call,
                unknown_name_message(NameKind::lock_type, name));
  return *t;
}

unsigned check_asserts(lua_State* L, int idx, const char* call) {
  unsigned bits = 0;
  auto add = [&](const char* name) {
    auto a = rma::parse_assert(name);
    if (!a)
      raise_error(L, rma::ErrorClass::assert_, call, unknown_name_message(NameKind::assert_, name));
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

std::vector<int> check_group(lua_State* L, int idx, const char* call) {
  luaL_checktype(L, idx, LUA_TTABLE);
  std::vector<int> g;
  const lua_Integer n = luaL_len(L, idx);
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, i);
    g.push_back(check_rank(L, -1, call));
    lua_pop(L, 1);
  }
  return g;
}

int check_tag(lua_State* L, int idx) {
  const lua_Integer t = luaL_optinteger(L, idx, 0);
  if (t < 0 || t > 1 << 30) luaL_error(L, "tag %I is outside 0..2^30", t);
  if (t >= kFirstHarnessTag && t <= kLastHarnessTag)
    luaL_error(L, "tag %I is reserved for the harness's own messages (%d..%d)", t, kFirstHarnessTag,
               kLastHarnessTag);
  return static_cast<int>(t);
}

// A call being read from the script: the Call, and the script's buffers it refers to.
struct Parsed {
  call::Call c;
  Buffer* origin = nullptr;  // origin, origin_or_nil, memory
  Buffer* result = nullptr;  // result, result_or_return
  Buffer scratch;            // [value, compare, old value] of the atomics
  bool returns_old = false;  // result_or_return was not given
  int layout = 0;            // the stack index of the layout table, 0 without one
};

// Roles that do not depend on other arguments.
template <Arg A>
void read_arg(lua_State* L, int idx, Parsed& p, const char* name) {
  call::Call& c = p.c;
  if constexpr (A == Arg::origin || A == Arg::origin_or_nil || A == Arg::memory) {
    if (A == Arg::origin_or_nil && lua_isnil(L, idx)) return;
    Buffer& b = arg_buffer(L, idx);
    p.origin = &b;
    c.origin = b.data;
    c.bytes = b.bytes();
    if constexpr (A != Arg::memory) {
      c.count = b.count;
      c.dtype = b.dtype;
    }
  } else if constexpr (A == Arg::result) {
    Buffer& b = arg_buffer(L, idx);
    p.result = &b;
    c.result = b.data;
    c.bytes = b.bytes();
    c.count = b.count;
    c.dtype = b.dtype;
  } else if constexpr (A == Arg::result_or_return) {
    p.result = arg_buffer_or_null(L, idx);
    p.returns_old = p.result == nullptr;
    if (p.result) c.result = p.result->data;
  } else if constexpr (A == Arg::dtype) {
    c.dtype = check_dtype(L, idx, name);
  } else if constexpr (A == Arg::target) {
    c.target = check_rank(L, idx, name);
  } else if constexpr (A == Arg::disp) {
    c.disp = check_disp(L, idx);
  } else if constexpr (A == Arg::op) {
    c.op = check_op(L, idx, name);
  } else if constexpr (A == Arg::lock_type) {
    c.lock_type = check_lock_type(L, idx, name);
  } else if constexpr (A == Arg::asserts) {
    c.asserts = check_asserts(L, idx, name);
  } else if constexpr (A == Arg::group) {
    c.group = check_group(L, idx, name);
  } else if constexpr (A == Arg::tag) {
    c.tag = check_tag(L, idx);
  } else if constexpr (A == Arg::layout) {
    if (lua_isnoneornil(L, idx)) return;
    if (!lua_istable(L, idx))
      raise_error(L, rma::ErrorClass::arg, name,
                  "the layout must be a table, got " + describe_value(L, idx));
    p.layout = idx;
  }
  // value and compare wait for the dtype: read_value.
}

constexpr std::string_view kLayoutFields[] = {"origin_type",  "origin_count", "target_type",
                                              "target_count", "result_type",  "result_count"};

// COUNT for a layout whose count would wrap its size or range (rma::Layout::in_limits).
void check_limits(lua_State* L, const rma::Layout& l, const char* side, const char* name) {
  if (!l.in_limits())
    raise_error(L, rma::ErrorClass::count, name,
                std::string(side) + " layout " + l.describe() +
                    " reaches 2^48 bytes or more of data or span");
}

// One side of a layout table: `<side>_type` (default: the buffer's dtype) and
// `<side>_count` (default: 1 with a type, else the buffer's element count), checked to stay
// inside the buffer.
rma::Layout layout_side(lua_State* L, int t, const char* side, const Buffer* b, const char* name) {
  const std::string tkey = std::string(side) + "_type", ckey = std::string(side) + "_count";
  rma::Layout l;
  lua_getfield(L, t, tkey.c_str());
  const bool typed = !lua_isnil(L, -1);
  l.type = typed ? check_type(L, lua_gettop(L), name) : rma::Datatype::basic(b->dtype);
  lua_pop(L, 1);
  lua_getfield(L, t, ckey.c_str());
  if (lua_isnil(L, -1)) {
    l.count = typed ? 1 : b->count;
  } else {
    int ok = 0;
    const lua_Integer n = lua_tointegerx(L, -1, &ok);
    if (!ok || n < 0)
      raise_error(L, rma::ErrorClass::count, name,
                  ckey + " must be an integer >= 0, got " + describe_value(L, -1));
    l.count = static_cast<std::uint64_t>(n);
  }
  lua_pop(L, 1);
  check_limits(L, l, side, name);
  if (l.elements() && (l.data_lo() < 0 || l.data_hi() > static_cast<std::int64_t>(b->bytes())))
    raise_error(L, rma::ErrorClass::buffer, name,
                std::string(side) + " layout " + l.describe() + " touches bytes " +
                    std::to_string(l.data_lo()) + ".." + std::to_string(l.data_hi()) + " of a " +
                    std::to_string(b->bytes()) + "-byte buffer");
  return l;
}

// The layout table of a communication call, every side resolved (call.hpp's Call fields).
void read_layout(lua_State* L, Parsed& p, const char* name) {
  const int t = p.layout;
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    const std::string_view key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    const std::vector<std::string_view> known(std::begin(kLayoutFields), std::end(kLayoutFields));
    if (std::find(known.begin(), known.end(), key) == known.end())
      raise_error(L, rma::ErrorClass::arg, name,
                  "unknown layout field " +
                      (key.empty() ? describe_value(L, -1) : "'" + std::string(key) + "'") +
                      unknown_name_hint(key, known, "fields"));
  }
  call::Call& c = p.c;
  const bool get = c.kind == Kind::get || c.kind == Kind::rget;
  const Buffer* data = get ? p.result : p.origin;
  const bool acc_result = c.kind == Kind::get_accumulate || c.kind == Kind::rget_accumulate;
  if (acc_result) c.result_layout = layout_side(L, t, "result", p.result, name);
  if (data)
    c.origin_layout = layout_side(L, t, "origin", data, name);
  else
    c.origin_layout = rma::Layout{0, c.result_layout.type};  // no_op: no operands
  const rma::Layout& from = data ? c.origin_layout : c.result_layout;
  lua_getfield(L, t, "target_type");
  if (!lua_isnil(L, -1)) {
    c.target_layout.type = check_type(L, lua_gettop(L), name);
    lua_getfield(L, t, "target_count");
    c.target_layout.count = 1;
    if (!lua_isnil(L, -1)) {
      int ok = 0;
      const lua_Integer n = lua_tointegerx(L, -1, &ok);
      if (!ok || n < 0)
        raise_error(L, rma::ErrorClass::count, name,
                    "target_count must be an integer >= 0, got " + describe_value(L, -1));
      c.target_layout.count = static_cast<std::uint64_t>(n);
    }
    lua_pop(L, 1);
  } else {
    // Today's meaning: contiguous elements of the origin's one basic type.
    const auto basic = from.type->basic_type();
    if (!basic && from.elements())
      raise_error(
          L, rma::ErrorClass::type, name,
          "the origin signature " + from.signature() + " mixes basic types: give target_type");
    c.target_layout =
        rma::Layout{from.elements(), rma::Datatype::basic(basic.value_or(rma::Dtype::u8))};
  }
  lua_pop(L, 1);
  check_limits(L, c.target_layout, "target", name);
}

// Single elements, read once the dtype is known; a nil operand is fine for no_op.
template <Arg A>
void read_value(lua_State* L, int idx, Parsed& p) {
  if constexpr (A == Arg::value) {
    if (p.c.op != rma::Op::no_op || !lua_isnoneornil(L, idx))
      store_value(L, p.c.dtype, idx, p.scratch.data);
  } else if constexpr (A == Arg::compare) {
    store_value(L, p.c.dtype, idx, p.scratch.data + p.scratch.elem());
  }
}

template <Kind K, std::size_t I>
constexpr Arg role = call::describe(K).args.list[I];

// The call's arguments, read by role and checked against each other; the window of a window
// method (else null).
template <Kind K>
LuaWindow* parse_call(lua_State* L, [[maybe_unused]] RankContext& ctx, Parsed& p) {
  constexpr call::Description d = call::describe(K);
  constexpr bool on_window = d.family != Family::job;
  constexpr bool atomic = d.args.has(Arg::value) || d.args.has(Arg::compare);
  constexpr int first = on_window ? 2 : 1;  // a window method's first argument is the window
  [[maybe_unused]] const char* name = d.name.data();
  p.c.kind = K;
  LuaWindow* lw = nullptr;
  if constexpr (on_window) {
    lw = bound_udata<LuaWindow>(L, 1, kWindowMetaUpvalue);
    if (!lw) lw = &check_window(L, 1);
    p.c.win = lw->win;
  }
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (read_arg<role<K, I>>(L, first + static_cast<int>(I), p, name), ...);
    if constexpr (atomic) {
      p.scratch = make_buffer(3, p.c.dtype);
      p.c.origin = p.scratch.data;
      if constexpr (call::describe(K).args.has(Arg::compare))
        p.c.compare = p.scratch.data + p.scratch.elem();
      if (p.returns_old) p.c.result = p.scratch.data + 2 * p.scratch.elem();
      (read_value<role<K, I>>(L, first + static_cast<int>(I), p), ...);
    }
  }
  (std::make_index_sequence<static_cast<std::size_t>(d.args.count)>{});
  if constexpr (d.args.has(Arg::layout)) {
    if (p.layout) {
      read_layout(L, p, name);
      if (!ctx.impl->supports_layouts())
        raise_error(L, rma::ErrorClass::unsupported, name,
                    "derived datatypes are not supported on " + ctx.impl->name() + " yet");
    }
  }
  if constexpr (d.args.has(Arg::origin_or_nil)) {
    if (!p.layout && p.origin &&
        (p.origin->dtype != p.result->dtype || p.origin->count != p.result->count))
      raise_error(L, rma::ErrorClass::arg, name,
                  "origin and result buffers differ in dtype or count");
  }
  if constexpr (d.args.has(Arg::result_or_return)) {
    if (p.returns_old && !lw->win->passive_access())
      raise_error(L, rma::ErrorClass::rma_sync, name,
                  "returning the old value needs a lock or lock_all epoch; pass a result buffer "
                  "under fence or start");
  }
  return lw;
}

// Returning the old value completes the op locally at once: the flush_local that does it.
std::optional<call::Call> completing_flush(const Parsed& p) {
  std::optional<call::Call> flush;
  if (p.returns_old && p.c.target != rma::proc_null) {
    flush.emplace();
    flush->kind = Kind::flush_local;
    flush->win = p.c.win;
    flush->target = p.c.target;
  }
  return flush;
}

// The call (and its flush) on the implementation, traced, its error raised in Lua; then the
// race recorder, if one runs, is told.
template <Kind K>
impl::Outcome execute_call(lua_State* L, RankContext& ctx, Parsed& p,
                           const std::optional<call::Call>& flush, LuaWindow* lw) {
  constexpr call::Description d = call::describe(K);
  impl::Outcome out;
  {
    std::optional<WhereScope> w;
    if (call::may_block(K) || p.returns_old) w.emplace(ctx, L);
    const std::int64_t t0 = rma::trace::on() ? rma::trace::now_ns() : 0;
    rma::Status st = ctx.impl->execute(p.c, &out);
    if (st && flush) st = ctx.impl->execute(*flush, nullptr);
    if (t0) call::trace(p.c, ctx.impl->rank(), t0, rma::trace::now_ns());
    check(L, st, d.name.data());
  }
  if (races::Recorder* rec = races::Recorder::active()) {
    // A test that returned false ended nothing.
    if (K != Kind::test || out.flag) {
      races::Recorder::Extra extra;
      extra.returned = p.returns_old;
      if constexpr (d.family == Family::request) extra.request = out.request.get();
      rec->call(p.c, lw ? lw->win->id() : -1, script_position(L), extra);
    }
  }
  return out;
}

// The buffers the call's ops still read or write, kept alive: by the window until the epoch
// completes them, and by the benchmark recorder for its replays.
template <Kind K>
void keep_buffers(RankContext& ctx, const Parsed& p, [[maybe_unused]] LuaWindow* lw,
                  const std::optional<call::Call>& flush) {
  constexpr call::Description d = call::describe(K);
  if constexpr (d.family != Family::job) {
    // Request-based ops too: a script may drop the request and let the epoch's unlock or
    // flush complete the op, so the window keeps their buffers until then as well.
    if constexpr (d.family == Family::communication || d.family == Family::request) {
      if (!p.returns_old) {
        if (p.origin) lw->pin(p.c.target, p.origin->keeper);
        if (p.result) lw->pin(p.c.target, p.result->keeper);
        if (p.scratch.keeper) lw->pin(p.c.target, p.scratch.keeper);
      }
    }
    if constexpr (d.completes == Completes::target) lw->unpin(p.c.target);
    if constexpr (d.completes == Completes::all) lw->unpin_all();
    if constexpr (K == Kind::attach) lw->attached.push_back(p.origin->keeper);
  }
  if (ctx.recorder && impl::Program::replays(K)) {
    std::vector<std::shared_ptr<void>> keep;
    if (p.origin) keep.push_back(p.origin->keeper);
    if (p.result) keep.push_back(p.result->keeper);
    if (p.scratch.keeper) keep.push_back(p.scratch.keeper);
    ctx.recorder->add(p.c, std::move(keep));
    if (flush) ctx.recorder->add(*flush);
  }
}

// What the call returns to Lua; the number of values pushed.
template <Kind K>
int push_results([[maybe_unused]] lua_State* L, [[maybe_unused]] const Parsed& p,
                 [[maybe_unused]] impl::Outcome& out) {
  constexpr call::Description d = call::describe(K);
  if constexpr (d.family == Family::request) {
    std::vector<std::shared_ptr<void>> pins;
    if (p.origin) pins.push_back(p.origin->keeper);
    if (p.result) pins.push_back(p.result->keeper);
    push_request(L, std::move(out.request), std::move(pins));
    return 1;
  } else if constexpr (d.args.has(Arg::result_or_return)) {
    if (!p.returns_old) return 0;
    return push_element(L, p.scratch, 2);
  } else if constexpr (K == Kind::test) {
    lua_pushboolean(L, out.flag);
    return 1;
  } else if constexpr (K == Kind::attach) {
    // The displacement peers use for the buffer's first element: its address.
    lua_pushinteger(L, static_cast<lua_Integer>(reinterpret_cast<std::uintptr_t>(p.origin->data)));
    return 1;
  } else if constexpr (K == Kind::recv) {
    lua_pushinteger(L, static_cast<lua_Integer>(out.received / p.result->elem()));
    return 1;
  } else {
    return 0;
  }
}

template <Kind K>
int call_binding(lua_State* L) {
  RankContext& ctx = bound_context(L);
  if constexpr (K == Kind::free) {
    if (ctx.recorder)
      luaL_error(L, "free inside a benchmarked run hook: windows must outlive the replays");
  }
  if (!ctx.impl) luaL_error(L, "rma calls are only available inside a case's hooks");
  Parsed p;
  LuaWindow* lw = parse_call<K>(L, ctx, p);
  const std::optional<call::Call> flush = completing_flush(p);
  impl::Outcome out = execute_call<K>(L, ctx, p, flush, lw);
  keep_buffers<K>(ctx, p, lw, flush);
  return push_results<K>(L, p, out);
}

using Binding = int (*)(lua_State*);

constexpr Binding kBindings[] = {
#define RMABENCH_CALL_BINDING(name, family, completes, args) &guarded<call_binding<Kind::name>>,
    RMABENCH_CALLS(RMABENCH_CALL_BINDING)
#undef RMABENCH_CALL_BINDING
};

}  // namespace

void add_calls(lua_State* L, RankContext& ctx, bool window_methods) {
  for (int i = 0; i < call::kind_count; ++i) {
    const call::Description& d = call::describe(static_cast<Kind>(i));
    if ((d.family != Family::job) != window_methods) continue;
    lua_pushlightuserdata(L, &ctx);
    luaL_getmetatable(L, kWindowMeta);  // nil before open_window: the job's calls need none
    luaL_getmetatable(L, kBufferMeta);
    lua_pushcclosure(L, kBindings[i], 3);
    lua_setfield(L, -2, d.name.data());
  }
}

}  // namespace harness::lua
