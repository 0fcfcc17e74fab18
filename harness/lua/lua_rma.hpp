// lua_rma.hpp — the `rma` table scripts see (lua_scripts/API.md documents every name).
//
// open_rma() builds it for a rank: rank, size, opt, the point-to-point calls, buffers,
// windows, expectations, logging, time and counters. open_rma_descriptive() builds the
// table the parent uses to read a script's case table: the same constants, no rank.
#pragma once

#include <optional>
#include "lua/lua_state.hpp"
#include "lua/rank_context.hpp"

#include "rma/counters.hpp"

namespace harness::lua {

void open_rma(lua_State* L, RankContext& ctx);
void open_rma_descriptive(lua_State* L);

// {rma = n, by_type = {...}, direct = {...}, transport = {...}} for a set of counters.
void push_counters(lua_State* L, const rma::Counters& c);
// Pushes the counters, or, where the implementation under test cannot observe them (an MPI
// library), ends the case as a skip saying so: a case that reads them makes sense only on
// the reference.
void push_counters_or_skip(lua_State* L, const std::optional<rma::Counters>& c);

// Sets rma.opt from the script's declared options and the case's values (typed by each
// option's default). Expects the case table at `case_idx`.
void set_options(lua_State* L, int case_idx, const std::map<std::string, std::string>& values);

}  // namespace harness::lua
