// lua_window.hpp — windows for scripts: rma.window{...}, the window object and the request
// object. The window's calls (put, get, ..., fence, lock, ..., attach, free) are the generic
// bindings of lua_call.hpp; here are the rest of its methods (local_buffer, shared_query, id,
// path, flavor, size, counters).
//
// Buffers passed to an operation are kept alive until the synchronization that completes it,
// so a script may pass a temporary buffer; window memory handed out as a buffer view stays
// valid after free().
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "impl/implementation.hpp"
#include "lua/lua_state.hpp"
#include "lua/rank_context.hpp"

namespace harness::lua {

inline constexpr const char* kWindowMeta = "rma.window";

struct LuaWindow {
  impl::Window* win = nullptr;
  std::shared_ptr<void> user_memory;  // the buffer a create window was made over
  // Buffers of ops not yet known complete, with their target: released by the
  // synchronization that completes them.
  std::vector<std::pair<int, std::shared_ptr<void>>> pinned;
  // Attached memory: kept while the window object lives.
  std::vector<std::shared_ptr<void>> attached;

  void pin(int target, std::shared_ptr<void> keeper) {
    if (keeper) pinned.emplace_back(target, std::move(keeper));
  }
  void unpin(int target) {
    std::erase_if(pinned, [target](const auto& p) { return p.first == target; });
  }
  void unpin_all() { pinned.clear(); }
};

LuaWindow& check_window(lua_State* L, int idx = 1);

// Pushes the request object of an r* call, holding the buffers it uses until it completes.
void push_request(lua_State* L, std::unique_ptr<impl::Request> req,
                  std::vector<std::shared_ptr<void>> pins);

// Adds `window` to the table on top of the stack and registers the metatables, the window's
// call methods bound to `ctx`.
void open_window(lua_State* L, RankContext& ctx);

}  // namespace harness::lua
