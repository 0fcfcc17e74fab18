// The spellings of a case's enums (case_names.hpp), one table each.
#include "suite/case_names.hpp"

#include "rma/name_table.hpp"

namespace harness::suite {
namespace {

using rma::make_names;
using std::pair;
using std::string_view;

constexpr auto kModes = make_names<CaseMode>(pair{CaseMode::run, string_view("run")},
                                             pair{CaseMode::bench, string_view("bench")},
                                             pair{CaseMode::floor, string_view("floor")});

constexpr auto kBinds =
    make_names<Bind>(pair{Bind::auto_, string_view("auto")}, pair{Bind::core, string_view("core")},
                     pair{Bind::none, string_view("none")});

constexpr auto kChecks =
    make_names<Check>(pair{Check::none, string_view("")}, pair{Check::races, string_view("races")});

std::vector<std::string> strings(const std::vector<string_view>& v) {
  return {v.begin(), v.end()};
}

}  // namespace

std::string name(CaseMode m) {
  return std::string(kModes.name(m));
}
std::string name(Expected e) {
  return std::string(reports::to_string(e));
}
std::string name(Bind b) {
  return std::string(kBinds.name(b));
}
std::string name(Check c) {
  return std::string(kChecks.name(c));
}
std::string name(rma::Path p) {
  return std::string(rma::to_string(p));
}
std::string name(rma::ProgressMode m) {
  return std::string(rma::to_string(m));
}
std::string name(rma::Protocol p) {
  return std::string(rma::to_string(p));
}

std::optional<CaseMode> parse_case_mode(string_view s) {
  return kModes.parse(s);
}
std::optional<Expected> parse_expected(string_view s) {
  return reports::parse_expected(s);
}
std::optional<Bind> parse_bind(string_view s) {
  return kBinds.parse(s);
}
std::optional<Check> parse_check(string_view s) {
  return kChecks.parse(s);
}

std::vector<std::string> bind_names() {
  return strings(kBinds.names());
}

}  // namespace harness::suite
