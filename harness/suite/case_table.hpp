// case_table.hpp — the case table's contract, checked in one place: the fields a script may
// return (lua_scripts/API.md, "Case table"), the type each must have, and the integer
// counts of `messages`. `run`, `bench`, `list` and `describe` all check it (through
// load_script_info) before any rank starts, so a typo never turns a case vacuous:
//
//   lua_scripts/x.lua:12: case table: unknown field 'chekc' (did you mean 'check'?)
//   lua_scripts/x.lua:3: case table: field 'ranks': expected a positive integer, got string "four"
//
// The line is the one where the field can be found (a function's first line, else the one
// line of the file that assigns the field); when neither is known the message names the file.
#pragma once

#include <lua.h>

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "lua/lua_fields.hpp"
#include "suite/usage_error.hpp"

namespace harness::suite {

// Every field of the case table, in the order API.md lists them.
const std::vector<std::string_view>& case_table_fields();

// Checks the table at `idx` against the contract; throws UsageError with one line per
// problem ("FILE[:LINE]: case table: ..."). `file` is the script's path: `name`, when given,
// must equal its stem.
void check_case_table(lua_State* L, int idx, const std::string& file);

// A case table or suite is plain data: throws UsageError ("FILE: the table it returns has a
// metatable (at `cases[2]`): ...") when the table at `idx` or one inside it has a metatable,
// before anything reads a field through it.
void check_plain_data(lua_State* L, int idx, const std::string& file);

// Reads a `messages` table (RMA packet type or "total" -> count) at `idx` into `out`; returns
// "" or what is wrong ("entry 'total': expected an integer count, got number 2.5", "unknown
// packet type 'aks' (did you mean 'ack'?)"). Used on the declared table in the parent and on
// what a `messages` function returned in the rank.
std::string read_message_counts(lua_State* L, int idx, nlohmann::json& out);

// What a case declares about its packets, as a rank reports it in its result: a table of
// counts, `varies` (not declared), or `direct` (every window on the direct path, which sends
// none of its own); `direct_varies` is `direct` for a script that said `varies`, whose ops
// that fell back to the am slots cost a count that depends on timing. The strings exist only
// in these two functions and the Lua field.
enum class Declared { none, counts, varies, direct, direct_varies };
Declared declared_kind(const nlohmann::json& declaration);
nlohmann::json declaration(Declared kind);  // `varies`, `direct` or `direct_varies`
// Whether the Lua value at `idx` is the string `varies`.
bool is_varies(lua_State* L, int idx);

// The suggestion for a misspelt name and a value's description in a message; their home is
// lua/lua_fields.hpp, since the bindings' field tables (rma.window{...}) use them too.
using lua::describe_value;
using lua::nearest_word;
using lua::unknown_name_hint;

}  // namespace harness::suite
