#include "lua/lua_buffer.hpp"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <type_traits>

#include "lua/lua_fields.hpp"
#include "lua/lua_guard.hpp"
#include "lua/rank_context.hpp"
#include "oracle/oracle.hpp"
#include "races/recorder.hpp"
#include "rma/dtype_visit.hpp"

namespace harness::lua {
namespace {

std::size_t check_index(lua_State* L, const Buffer& b, int idx) {
  lua_Integer i = luaL_checkinteger(L, idx);
  if (i < 0 || static_cast<std::size_t>(i) >= b.count)
    luaL_error(L, "buffer index %I is outside 0..%I", i, static_cast<lua_Integer>(b.count) - 1);
  return static_cast<std::size_t>(i);
}

std::size_t check_count(lua_State* L, int idx, const char* what) {
  lua_Integer n = luaL_checkinteger(L, idx);
  if (n < 0) luaL_error(L, "%s must not be negative (got %I)", what, n);
  return static_cast<std::size_t>(n);
}

int buf_fill(lua_State* L) {
  Buffer& b = check_buffer(L, 1);
  alignas(16) std::byte v[16];  // a pair is up to 16 bytes
  store_value(L, b.dtype, 2, v);
  note_access(L, b, true);
  const std::size_t e = b.elem();
  for (std::size_t i = 0; i < b.count; ++i) std::memcpy(b.data + i * e, v, e);
  lua_settop(L, 1);
  return 1;
}

// iota(start, step): element i = start + i * step (handy for recognisable data).
int buf_iota(lua_State* L) {
  Buffer& b = check_buffer(L, 1);
  const lua_Integer start = luaL_optinteger(L, 2, 0);
  const lua_Integer step = luaL_optinteger(L, 3, 1);
  note_access(L, b, true);
  for (std::size_t i = 0; i < b.count; ++i) {
    lua_pushinteger(L, static_cast<lua_Integer>(static_cast<unsigned long long>(start) +
                                                static_cast<unsigned long long>(i) *
                                                    static_cast<unsigned long long>(step)));
    // Wrap silently: a sequence may overflow a small type on purpose. A pair's value
    // follows the sequence and its index is the element's.
    rma::visit_dtype(b.dtype, [&]<class T>() {
      T v;
      if constexpr (rma::is_pair_v<T>) {
        v.value = static_cast<decltype(v.value)>(lua_tointeger(L, -1));
        v.index = static_cast<std::int32_t>(i);
      } else {
        v = static_cast<T>(lua_tointeger(L, -1));
      }
      std::memcpy(b.data + i * sizeof(T), &v, sizeof(T));
    });
    lua_pop(L, 1);
  }
  lua_settop(L, 1);
  return 1;
}

int buf_get(lua_State* L) {
  Buffer& b = check_buffer(L, 1);
  const std::size_t i = check_index(L, b, 2);
  note_access(L, b, i, 1, false);
  return push_element(L, b, i);
}

int buf_set(lua_State* L) {
  Buffer& b = check_buffer(L, 1);
  const std::size_t i = check_index(L, b, 2);
  store_element(L, b, i, 3);
  note_access(L, b, i, 1, true);
  lua_settop(L, 1);
  return 1;
}

int buf_sub(lua_State* L) {
  Buffer& b = check_buffer(L, 1);
  const std::size_t first = check_count(L, 2, "sub: first");
  const std::size_t count = lua_isnoneornil(L, 3) ? (first <= b.count ? b.count - first : 0)
                                                  : check_count(L, 3, "sub: count");
  if (first > b.count || count > b.count - first)
    return luaL_error(L, "sub(%I, %I) is outside a buffer of %I elements",
                      static_cast<lua_Integer>(first), static_cast<lua_Integer>(count),
                      static_cast<lua_Integer>(b.count));
  Buffer v = b;
  v.data = b.data + first * b.elem();
  v.count = count;
  push_buffer(L, std::move(v));
  return 1;
}

// FNV-1a over the bytes: cheap, and equal contents give equal sums on every rank.
int buf_checksum(lua_State* L) {
  Buffer& b = check_buffer(L, 1);
  note_access(L, b, false);
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < b.bytes(); ++i) {
    h ^= static_cast<std::uint8_t>(b.data[i]);
    h *= 0x100000001b3ull;
  }
  lua_pushinteger(L, static_cast<lua_Integer>(h));
  return 1;
}

int buf_equals(lua_State* L) {
  Buffer& a = check_buffer(L, 1);
  Buffer& b = check_buffer(L, 2);
  note_access(L, a, false);
  note_access(L, b, false);
  lua_pushboolean(
      L, a.dtype == b.dtype && a.count == b.count && std::memcmp(a.data, b.data, a.bytes()) == 0);
  return 1;
}

int buf_count(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(check_buffer(L, 1).count));
  return 1;
}

int buf_bytes(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(check_buffer(L, 1).bytes()));
  return 1;
}

int buf_dtype(lua_State* L) {
  const auto name = rma::to_string(check_buffer(L, 1).dtype);
  lua_pushlstring(L, name.data(), name.size());
  return 1;
}

int buf_copy(lua_State* L) {
  Buffer& b = check_buffer(L, 1);
  Buffer c = make_buffer(b.count, b.dtype);
  note_access(L, b, false);
  std::memcpy(c.data, b.data, b.bytes());
  push_buffer(L, std::move(c));
  return 1;
}

int buf_copy_from(lua_State* L) {
  Buffer& dst = check_buffer(L, 1);
  Buffer& src = check_buffer(L, 2);
  if (src.bytes() != dst.bytes())
    return luaL_error(L, "copy_from: %I bytes into a buffer of %I",
                      static_cast<lua_Integer>(src.bytes()), static_cast<lua_Integer>(dst.bytes()));
  note_access(L, src, false);
  note_access(L, dst, true);
  std::memmove(dst.data, src.data, src.bytes());
  lua_settop(L, 1);
  return 1;
}

// apply(op, other): the harness oracle, self[i] = op(self[i], other[i]) (other may be a
// number, applied to every element).
int buf_apply(lua_State* L) {
  Buffer& b = check_buffer(L, 1);
  const char* name = luaL_checkstring(L, 2);
  auto op = rma::parse_op(name);
  if (!op) raise_error(L, rma::ErrorClass::op, "apply", unknown_name_message(NameKind::op, name));
  if (!rma::op_valid_for(*op, b.dtype))
    raise_error(L, rma::ErrorClass::op, "apply",
                std::string(name) + " is not defined for " + std::string(rma::to_string(b.dtype)));
  if (Buffer* o = test_buffer(L, 3)) {
    if (o->dtype != b.dtype || o->count != b.count)
      return luaL_error(
          L, "apply: operand buffer has %I %s, target %I %s", static_cast<lua_Integer>(o->count),
          std::string(rma::to_string(o->dtype)).c_str(), static_cast<lua_Integer>(b.count),
          std::string(rma::to_string(b.dtype)).c_str());
    note_access(L, *o, false);
    oracle::apply(*op, b.dtype, b.data, o->data, b.count);
  } else {
    alignas(16) std::byte v[16];
    store_value(L, b.dtype, 3, v);
    for (std::size_t i = 0; i < b.count; ++i)
      oracle::apply(*op, b.dtype, b.data + i * b.elem(), v, 1);
  }
  note_access(L, b, true);
  lua_settop(L, 1);
  return 1;
}

int buf_len(lua_State* L) {
  return buf_count(L);
}

int buf_tostring(lua_State* L) {
  Buffer& b = check_buffer(L, 1);
  const std::string s =
      "rma.buffer(" + std::to_string(b.count) + " " + std::string(rma::to_string(b.dtype)) + ")";
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

int buf_gc(lua_State* L) {
  auto* b = static_cast<Buffer*>(luaL_checkudata(L, 1, kBufferMeta));
  b->~Buffer();
  return 0;
}

const luaL_Reg kMethods[] = {
    {"fill", guarded<buf_fill>},     {"iota", guarded<buf_iota>},
    {"get", guarded<buf_get>},       {"set", guarded<buf_set>},
    {"sub", guarded<buf_sub>},       {"checksum", guarded<buf_checksum>},
    {"equals", guarded<buf_equals>}, {"count", guarded<buf_count>},
    {"bytes", guarded<buf_bytes>},   {"dtype", guarded<buf_dtype>},
    {"copy", guarded<buf_copy>},     {"copy_from", guarded<buf_copy_from>},
    {"apply", guarded<buf_apply>},   {nullptr, nullptr},
};

}  // namespace

Buffer make_buffer(std::size_t count, rma::Dtype dtype) {
  const std::size_t bytes = count * rma::size_of(dtype);
  const std::size_t alloc = ((bytes ? bytes : 1) + 63) & ~std::size_t{63};
  void* p = std::aligned_alloc(64, alloc);
  if (!p) throw std::bad_alloc();
  std::memset(p, 0, alloc);
  Buffer b;
  b.keeper = std::shared_ptr<void>(p, std::free);
  b.data = static_cast<std::byte*>(p);
  b.count = count;
  b.dtype = dtype;
  return b;
}

rma::Dtype check_dtype(lua_State* L, int idx, const char* op) {
  const char* name = luaL_checkstring(L, idx);
  auto t = rma::parse_dtype(name);
  if (!t) raise_error(L, rma::ErrorClass::type, op, unknown_name_message(NameKind::dtype, name));
  return *t;
}

int lua_new_buffer(lua_State* L) {
  const std::size_t count = check_count(L, 1, "buffer count");
  const rma::Dtype t = lua_isnoneornil(L, 2) ? rma::Dtype::u8 : check_dtype(L, 2, "buffer");
  // The cap is on bytes (16 GiB, the machines this runs on have less): counted in elements
  // it let an f64 buffer of 128 GiB through.
  constexpr std::size_t kMaxBytes = std::size_t{1} << 34;
  if (count > kMaxBytes / rma::size_of(t))
    return luaL_error(L, "buffer of %I %s elements is too large (more than 16 GiB)",
                      static_cast<lua_Integer>(count), std::string(rma::to_string(t)).c_str());
  push_buffer(L, make_buffer(count, t));
  return 1;
}

void open_buffer(lua_State* L) {
  luaL_newmetatable(L, kBufferMeta);
  luaL_newlib(L, kMethods);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, guarded<buf_len>);
  lua_setfield(L, -2, "__len");
  lua_pushcfunction(L, guarded<buf_tostring>);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, buf_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
}

Buffer& push_buffer(lua_State* L, Buffer b) {
  void* mem = lua_newuserdatauv(L, sizeof(Buffer), 0);
  auto* p = new (mem) Buffer(std::move(b));
  luaL_setmetatable(L, kBufferMeta);
  return *p;
}

Buffer& check_buffer(lua_State* L, int idx) {
  return *static_cast<Buffer*>(luaL_checkudata(L, idx, kBufferMeta));
}

Buffer* test_buffer(lua_State* L, int idx) {
  return static_cast<Buffer*>(luaL_testudata(L, idx, kBufferMeta));
}

namespace {
// One scalar of type T from the Lua value at `idx`, range-checked; `dtype` names it.
template <class T>
T scalar_value(lua_State* L, rma::Dtype dtype, int value_idx) {
  T v{};
  {
    if constexpr (std::is_floating_point_v<T>) {
      int ok = 0;
      lua_Number n = lua_tonumberx(L, value_idx, &ok);
      if (!ok)
        luaL_error(L, "expected a number for %s, got %s",
                   std::string(rma::to_string(dtype)).c_str(), luaL_typename(L, value_idx));
      v = static_cast<T>(n);
    } else {
      int ok = 0;
      lua_Integer n = lua_tointegerx(L, value_idx, &ok);
      if (!ok)
        luaL_error(
            L, "expected an integer for %s, got %s", std::string(rma::to_string(dtype)).c_str(),
            lua_isnumber(L, value_idx) ? lua_tostring(L, value_idx) : luaL_typename(L, value_idx));
      if constexpr (sizeof(T) < 8) {
        if (n < static_cast<lua_Integer>(std::numeric_limits<T>::min()) ||
            n > static_cast<lua_Integer>(std::numeric_limits<T>::max()))
          luaL_error(L, "value %I does not fit %s", n, std::string(rma::to_string(dtype)).c_str());
      }
      v = static_cast<T>(n);  // 64-bit types take the bit pattern (u64 from negatives)
    }
  }
  return v;
}
}  // namespace

// A pair's value is at value_idx and its index right after it.
void store_value(lua_State* L, rma::Dtype dtype, int value_idx, std::byte* out) {
  rma::visit_dtype(dtype, [&]<class T>() {
    T v{};
    if constexpr (rma::is_pair_v<T>) {
      if (lua_istable(L, value_idx)) {  // {value, index}: one argument (fetch_and_op's value)
        const int t = lua_absindex(L, value_idx);
        lua_rawgeti(L, t, 1);
        lua_rawgeti(L, t, 2);
        v.value = scalar_value<decltype(v.value)>(L, dtype, -2);
        v.index = scalar_value<std::int32_t>(L, dtype, -1);
        lua_pop(L, 2);
      } else {
        v.value = scalar_value<decltype(v.value)>(L, dtype, value_idx);
        v.index = scalar_value<std::int32_t>(L, dtype, value_idx + 1);
      }
    } else {
      v = scalar_value<T>(L, dtype, value_idx);
    }
    std::memcpy(out, &v, sizeof(T));
  });
}

void note_access(lua_State* L, const Buffer& b, std::size_t first, std::size_t count, bool store) {
  races::Recorder* rec = races::Recorder::active();
  if (!rec || count == 0) return;
  const std::byte* p = b.data + first * b.elem();
  if (rec->in_flight(p, count * b.elem(), store))
    rec->early(p, count * b.elem(), store, script_position(L));
  if (const races::Region* r = rec->find(p, count * b.elem()))
    rec->local(*r, p, count * b.elem(), store, script_position(L));
}

void store_element(lua_State* L, const Buffer& b, std::size_t i, int value_idx) {
  store_value(L, b.dtype, value_idx, b.data + i * b.elem());
}

namespace {
template <class T>
void push_scalar(lua_State* L, T v) {
  if constexpr (std::is_floating_point_v<T>)
    lua_pushnumber(L, static_cast<lua_Number>(v));
  else
    lua_pushinteger(L, static_cast<lua_Integer>(v));
}
}  // namespace

int push_element(lua_State* L, const Buffer& b, std::size_t i) {
  return rma::visit_dtype(b.dtype, [&]<class T>() {
    T v;
    std::memcpy(&v, b.data + i * sizeof(T), sizeof(T));
    if constexpr (rma::is_pair_v<T>) {
      push_scalar(L, v.value);
      push_scalar(L, v.index);
      return 2;
    } else {
      push_scalar(L, v);
      return 1;
    }
  });
}

}  // namespace harness::lua
