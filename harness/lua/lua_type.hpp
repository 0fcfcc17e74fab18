// lua_type.hpp — derived datatypes for scripts: rma.type_contiguous .. rma.type_resized
// with MPI's names and argument orders (rma/datatype.hpp), each returning a type userdata
// that answers size(), extent(), lb(), true_lb(), true_extent(), signature() and free().
#pragma once

#include "lua/lua_state.hpp"
#include "rma/datatype.hpp"

namespace harness::lua {

inline constexpr const char* kTypeMeta = "rma.type";

// The type constructors, into the table at the top of the stack (the `rma` table).
void add_type_constructors(lua_State* L);
// A type argument: a type userdata, or a dtype name for the basic type. A freed type is an
// ARG error naming `op`.
rma::TypeRef check_type(lua_State* L, int idx, const char* op);

}  // namespace harness::lua
