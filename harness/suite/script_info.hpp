// script_info.hpp — what a case script declares, read in the parent without running any hook:
// its name (the stem ids, reports and describe use), default rank count, options with
// descriptions and defaults, hooks present, expected outcome, iterations and the message
// counts it checks.
//
// A script's top level runs here with a descriptive `rma` table (names and constants, no
// rank); it should only build and return its case table.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "suite/case_names.hpp"

namespace harness::suite {

struct OptionDecl {
  std::string name;
  std::string description;
  std::string type;           // "integer", "number", "boolean", "string"
  std::string default_value;  // as text
};

// A script's own time limit: `base` seconds plus, per numeric option named, seconds for each
// unit of the case's value of it (`timeout = { 60, programs = 0.2 }`).
struct TimeoutRule {
  double base = 0;
  std::map<std::string, double> per_unit;
};

struct ScriptInfo {
  std::string path;
  std::string name;  // script_stem(path): the name ids and reports use
  int ranks = 2;
  std::vector<OptionDecl> options;
  std::vector<std::string> hooks;    // setup, run, check, teardown present
  Expected expect = Expected::pass;  // a misspelling is case_table.cpp's error
  int iterations = 1;
  std::string messages;     // "none", "table", "function", "varies"
  std::string description;  // the script's leading comment block
  // `impl_defined`: what MPI leaves to the implementation, by "" (every case) or
  // "option=value" / "np=N" -> the reason (lua_scripts/API.md).
  std::map<std::string, std::string> impl_defined;
  std::optional<TimeoutRule> timeout;  // the case table's `timeout`, when it has one
  // When the script failed to run (a Lua error): where and what. The case still runs, so
  // its ranks report the error as the case's.
  std::optional<std::string> load_error;
};

// How long the top level of a script or suite may run when the parent reads its table (a
// top level only builds a table; a loop there would hang the run before any case starts).
inline constexpr std::chrono::seconds kTopLevelLimit{10};

// A script whose top level fails sets load_error; one whose case table breaks the contract
// (suite/case_table.hpp), or whose top level runs past kTopLevelLimit, throws UsageError
// naming the file, the field (or the line) and what was expected.
ScriptInfo load_script_info(const std::string& path);

// The reason `impl_defined` gives for a case of this script with these option values
// (defaults filled in) and rank count; "" when it declares none. Several keys that match
// are joined with "; ".
std::string impl_defined_reason(const ScriptInfo& info,
                                const std::map<std::string, std::string>& options, int ranks);

// The time limit the script gives a case with these option values (defaults filled in), or
// none when it gives none; a rule whose sum is outside the range --timeout takes throws
// UsageError naming the script and the sum.
std::optional<double> declared_timeout(const ScriptInfo& info,
                                       const std::map<std::string, std::string>& options);

// Checks `value` against the declared type; returns the error text, or "" if it fits. A
// number is rewritten as the ranks will read it (" 8" and "0x8" become "8"), so one value
// has one spelling in case ids, and a control character (a newline would break the console
// line and the report's tables) is refused.
std::string check_option_value(const OptionDecl& decl, std::string& value);

// The script path relative to the nearest enclosing `lua_scripts` folder, without ".lua"
// (or the file's stem when it is not in one).
std::string script_stem(const std::string& path);

}  // namespace harness::suite
