// lua_fields.hpp — the tables of named fields a binding takes (rma.window{...}), checked the
// way the case table is: a key the binding does not know, or a value of the wrong type, is a
// Lua error at the script's line that names the field, and a misspelt key is shown the
// nearest known one, so a typo never silently gives a default:
//
//   x.lua:7: rma.window: unknown field 'paht' (did you mean 'path'?)
//   x.lua:7: rma.window: field 'size': number expected, got string "big"
//
// nearest_word, unknown_name_hint and describe_value are also where the case table's and
// the suite's checks (suite/) find theirs, so every "did you mean" and "got ..." reads the
// same.
#pragma once

#include <lua.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace harness::lua {

// The word of `known` nearest to `word` by edit distance (adjacent transpositions count
// one), or "" when none is near enough to be a likely typo.
std::string nearest_word(std::string_view word, const std::vector<std::string_view>& known);

// What follows "unknown <thing> '<word>'" in a message: " (did you mean 'x'?)" when one of
// `known` is a likely typo of `word`, else " (<label>: a b c)" listing them all.
std::string unknown_name_hint(std::string_view word, const std::vector<std::string_view>& known,
                              std::string_view label = "known");

// The kinds of name a call argument takes, each checked against MPI's list by one rule.
enum class NameKind { op, dtype, assert_, lock_type };

// Every name of `kind` a script may pass (pair dtypes and ops included).
const std::vector<std::string_view>& known_names(NameKind kind);

// "unknown op 'summ' (did you mean 'sum'?)": the message a binding raises (with MPI's error
// class for the kind) for a name not in known_names(kind).
std::string unknown_name_message(NameKind kind, std::string_view word);

// A value as an error message shows it: `string "four"`, `integer 0`, `number 2.5`,
// `boolean false`, `nil`, `function`; a table by its first few scalar fields, sorted
// (`table {code=5}`). No metamethod runs.
std::string describe_value(lua_State* L, int idx);

// Why the table at `idx` is not plain data ("" when it is): it, or a table nested in it, has
// a metatable ("has a metatable (at `options.size`)"), or its tables nest deeper than any
// case table or suite does, past which nothing is read. Nothing runs a metamethod (lua_next
// and raw reads), and shared or cyclic tables are visited once. The harness reads case
// tables and suites outside any protected call: a metatable there could raise (a Lua
// panic), loop forever, or answer one read differently from the next.
std::string plain_data_problem(lua_State* L, int idx);

// Raises one Lua error, `what` first, naming every key of the table at `idx` that is not in
// `known` and every entry without a name.
void check_field_names(lua_State* L, int idx, const char* what,
                       const std::vector<std::string_view>& known);

// Raises "<what>: field '<field>': <expected> expected, got <describe_value(idx)>".
[[noreturn]] void field_type_error(lua_State* L, int idx, const char* what, const char* field,
                                   const char* expected);

// Field `field` of the table at `t`: nullopt when nil, else an integer (2.0 is 2) or a
// field_type_error. The string "8" is no integer here: Lua's own checks would take it.
std::optional<lua_Integer> integer_field(lua_State* L, int t, const char* what, const char* field);

}  // namespace harness::lua
