// lua_window.hpp — windows for scripts: rma.window{...} and the window methods with MPI's
// names (put, get, accumulate, ..., fence, post, start, complete, wait, test, lock, unlock,
// lock_all, unlock_all, flush*, sync, attach, detach, local_buffer, shared_query, free).
//
// Buffers passed to an operation are kept alive until the synchronization that completes it,
// so a script may pass a temporary buffer; window memory handed out as a buffer view stays
// valid after free().
#pragma once

#include "lua/lua_state.hpp"

namespace harness::lua {

// Adds `window` to the table on top of the stack and registers the metatables.
void open_window(lua_State* L);

}  // namespace harness::lua
