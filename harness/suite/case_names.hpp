// case_names.hpp — the closed sets a case is made of, as enums, and the one table per enum
// that spells them at the boundaries (case ids, JSON, reports, suite tables, the command
// line). Inside the harness a case's fields are these enums; a spelling exists only here and,
// for the RMA vocabulary (paths, progress modes, protocols), in rma/types.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "reports/model.hpp"
#include "rma/types.hpp"

namespace harness::suite {

// What a case is run for: a conformance case, a benchmark replayed under Google Benchmark,
// or the hardware floor of a bench run (no script).
enum class CaseMode : std::uint8_t { run, bench, floor };
// The verdict a case is written to reach: the report model's (reports/model.hpp).
using Expected = reports::Expected;
// Whether ranks are bound to cores: auto binds when they fit.
enum class Bind : std::uint8_t { auto_, core, none };
// What the parent checks beyond the ranks' own verdicts (--check races).
enum class Check : std::uint8_t { none, races };

// The implementation under test when no MPI is named, and the backend that takes a provider:
// open-ended sets (MPI spellings, the registry's backends), so names, not enums.
inline constexpr std::string_view kReferenceImpl = "ref";
inline constexpr std::string_view kShmBackend = "shm";
inline constexpr std::string_view kFabricBackend = "fabric";

std::string name(CaseMode m);
std::string name(Expected e);
std::string name(Bind b);
std::string name(Check c);  // "" for none
std::string name(rma::Path p);
std::string name(rma::ProgressMode m);
std::string name(rma::Protocol p);

std::optional<CaseMode> parse_case_mode(std::string_view s);
std::optional<Expected> parse_expected(std::string_view s);
std::optional<Bind> parse_bind(std::string_view s);
std::optional<Check> parse_check(std::string_view s);  // "" is none

std::vector<std::string> bind_names();

// `T` from its name, or std::invalid_argument naming `field` and the value: for names that
// were checked already (a suite's matrix, the command line) and for the JSON a rank reads.
template <class T>
T parse_or_throw(std::optional<T> v, std::string_view field, std::string_view given) {
  if (!v)
    throw std::invalid_argument("unknown " + std::string(field) + " '" + std::string(given) + "'");
  return *v;
}

}  // namespace harness::suite
