// lua_call.hpp — the bindings of the calls in call/call.hpp: one generic binding, instantiated
// for each call of the list, reads the script's arguments by their roles into a call::Call,
// executes it through the rank's implementation, keeps its buffers alive until the call that
// completes them (call::completes_of) and appends it to the program being recorded.
//
// What differs between calls is said once, here: fetch_and_op and compare_and_swap without a
// result buffer return the old value (with an implicit flush_local), r* calls return a
// request object, win:test() a boolean, attach the address of the memory, recv the number of
// elements received, and free is refused while a benchmark records.
#pragma once

#include "lua/lua_state.hpp"
#include "lua/rank_context.hpp"

namespace harness::lua {

// Point-to-point tags a script may not use: the harness's own messages during a benchmark
// (worker/bench_loop.hpp), which a script's message could be taken for, or take the place of.
inline constexpr int kFirstHarnessTag = 32764;
inline constexpr int kLastHarnessTag = 32767;

// Adds a function per call to the table on top of the stack, bound to `ctx`: the window's
// calls (every family but job) when `window_methods`, else the job's (barrier, send, recv).
void add_calls(lua_State* L, RankContext& ctx, bool window_methods);

}  // namespace harness::lua
