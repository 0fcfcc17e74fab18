// lua_buffer.hpp — typed buffers for scripts: userdata over C++ memory, so bulk data never
// lives in Lua tables and fill, compare and checksum run in C++.
//
// A Buffer is a view: `keeper` holds the memory alive (a heap block, or a window's memory
// for local_buffer and shared_query), `data` and `count` say which elements of it.
// Element indices are 0-based, like displacements.
#pragma once

#include <cstddef>
#include <memory>

#include "lua/lua_state.hpp"
#include "rma/types.hpp"

namespace harness::lua {

inline constexpr const char* kBufferMeta = "rma.buffer";

struct Buffer {
  std::shared_ptr<void> keeper;
  std::byte* data = nullptr;
  std::size_t count = 0;
  rma::Dtype dtype = rma::Dtype::u8;

  std::size_t elem() const { return rma::size_of(dtype); }
  std::size_t bytes() const { return count * elem(); }
};

// A zeroed buffer of `count` elements, 64-byte aligned.
Buffer make_buffer(std::size_t count, rma::Dtype dtype);

void open_buffer(lua_State* L);  // the metatable; rma.buffer is set by open_rma
int lua_new_buffer(lua_State* L);
Buffer& push_buffer(lua_State* L, Buffer b);
Buffer& check_buffer(lua_State* L, int idx);
Buffer* test_buffer(lua_State* L, int idx);

// Element conversion with range checks; raise a Lua error naming the value and dtype.
void store_element(lua_State* L, const Buffer& b, std::size_t i, int value_idx);
// Pushes element i: one value, or a pair's value and index; returns how many.
int push_element(lua_State* L, const Buffer& b, std::size_t i);
// One value converted to `dtype`, into `out` (at least 16 bytes); a pair dtype reads its
// value at value_idx and its index at value_idx + 1, or both from a table {value, index}
// at value_idx.
void store_value(lua_State* L, rma::Dtype dtype, int value_idx, std::byte* out);
rma::Dtype check_dtype(lua_State* L, int idx, const char* op);

// Tells the `--check races` recorder (if any) that the script loads or stores elements
// [first, first+count) of `b` (all of them without a range); a no-op for memory that is no
// window's.
void note_access(lua_State* L, const Buffer& b, std::size_t first, std::size_t count, bool store);
inline void note_access(lua_State* L, const Buffer& b, bool store) {
  note_access(L, b, 0, b.count, store);
}

}  // namespace harness::lua
