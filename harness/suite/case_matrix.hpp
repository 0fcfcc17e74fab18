// case_matrix.hpp — from an entry of a suite (or a lone script) to its cases: the entry's
// matrix (backends, paths, progress modes, protocols, rank counts) and option values,
// narrowed by the command line, checked against the names the harness knows, expanded into
// CaseSpecs with their ids (manifest.cpp reads the entries; this expands them).
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "suite/manifest.hpp"

namespace harness::suite {

// A case's matrix, or the suite's defaults, against the names the harness knows; `where`
// says where the list of a field came from. `progress` holds canonical names.
void check_matrix(const std::vector<std::string>& backends, const std::vector<std::string>& paths,
                  const std::vector<std::string>& progress,
                  const std::vector<std::string>& protocols,
                  const std::function<std::string(const char* field)>& where);

// A dimension the case itself lists is a constraint: the command line narrows it (and a
// case that does not allow the value asked for is left out). One inherited from the suite
// is a default: the command line replaces it.
struct Pinned {
  bool backends = false, paths = false, progress = false, ranks = false, protocols = false;
};

// One entry of a suite, or a lone script, as read: its script, its matrix (a list of values
// per dimension, `pinned` where the entry lists them itself) and its settings.
struct CaseEntry {
  std::string script_path;
  std::string stem;
  std::vector<std::string> backends, paths, progress;
  std::vector<int> ranks;
  std::vector<std::string> protocols;
  std::map<std::string, std::vector<std::string>> options;
  std::string expect;
  // The time limit: --timeout, else the entry's own, else the script's, else the suite's.
  std::optional<double> timeout;
  double suite_timeout = 60;
  std::vector<std::string> tags;
  std::string where;
  Pinned pinned;
  std::string check;
};

// Appends the cases of entries to an Expansion; a case id met twice is an error.
class Expander {
 public:
  Expander(const Overrides& o, Expansion& out) : o_(o), out_(out) {
    if (o_.progress) o_.progress = canonical_progress(*o_.progress);
  }

  // The script's declarations, loaded once per path into the Expansion.
  const ScriptInfo& script(const std::string& path);

  // Appends the cartesian product of the entry's matrix and option values.
  void add(CaseEntry e);

  // " (declared: a b)": the options a script declares, for error messages; or that it
  // declares none (`several`: that the scripts named together declare none).
  static std::string declared_list(const ScriptInfo& info, bool several = false);

 private:
  // A command-line setting against one dimension: it replaces a list the entry inherited,
  // and narrows one the entry pinned (false: the entry does not allow the value).
  template <class T>
  static bool narrow(std::vector<T>& values, bool pinned, const std::optional<T>& cli) {
    if (!cli) return true;
    if (!pinned) {
      values = {*cli};
      return true;
    }
    if (std::find(values.begin(), values.end(), *cli) == values.end()) return false;
    values = {*cli};
    return true;
  }

  // The command line's settings against the entry's matrix (narrow above).
  bool narrow_matrix(CaseEntry& e) const;

  // Option values: the suite's lists, narrowed by -o for options this script declares, each
  // checked against the script's declaration.
  std::map<std::string, std::vector<std::string>> option_values(const CaseEntry& e,
                                                                const ScriptInfo& info) const;

  // Every combination of one value per option, in the options' order.
  static std::vector<std::map<std::string, std::string>> option_combinations(
      const std::map<std::string, std::vector<std::string>>& opts);

  // The rest of a case whose matrix point and options are set: from its entry, the script and
  // the command line; its id last.
  void fill_case(CaseSpec& c, const CaseEntry& e, const ScriptInfo& info) const;

  // A case id met before is an error, unless one of the two entries had its matrix replaced
  // by the command line: then the entry written for the case is the one kept.
  void record(CaseSpec c, bool replaced, const std::string& where);

  Overrides o_;
  Expansion& out_;
  struct Seen {
    std::size_t index;  // in out_.cases
    bool replaced;      // its entry's matrix was replaced by a command-line setting
  };
  std::map<std::string, Seen> ids_;
};

}  // namespace harness::suite
