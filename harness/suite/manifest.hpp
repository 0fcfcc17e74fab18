// manifest.hpp — expanding what `rmabench run` was given (a case script or a suite manifest)
// into the list of cases to run.
//
// A suite manifest is a Lua file returning a table with `cases` (see suites/README.md):
// scripts, each with the rank counts, backends, paths, progress modes and option values to
// run it with; the matrix is expanded into cases with stable ids. Command-line settings
// narrow the matrix (`--path direct` runs every case on direct only). Exclusions live in a
// file beside the manifest, one case id (or * pattern) per line with its reason.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "suite/case_spec.hpp"
#include "suite/script_info.hpp"
#include "suite/usage_error.hpp"

namespace harness::suite {

// Settings from the command line; empty means "as the script or suite says".
struct Overrides {
  std::optional<int> ranks;
  std::optional<std::string> backend;
  std::optional<std::string> path;
  std::optional<std::string> progress;
  std::optional<std::string> protocol;
  std::optional<std::string> provider;
  std::optional<double> timeout_s;
  std::optional<std::size_t> eager_limit;
  std::map<std::string, std::string> options;  // -o k=v
  std::string bind = "auto";
  std::string check;   // --check: "races" or ""
  bool trace = false;  // --trace: ranks record packets and calls
  std::string filter;  // keep ids containing this text
};

// A suite a run expanded: its name, manifest file and content hash (suite/suite_hash.hpp).
struct SuiteRan {
  std::string name, path, hash;
};

struct Expansion {
  std::string suite;             // "" for a single script
  std::vector<SuiteRan> suites;  // the suites among the inputs, in order
  std::vector<CaseSpec> cases;
  std::vector<std::pair<CaseSpec, std::string>> excluded;  // case and reason
  std::map<std::string, ScriptInfo> scripts;               // by script path
};

// Most rank processes one case may have (`-n`, manifests' rank lists): the shm transport's
// memory grows linearly with it (docs/scaling.md).
inline constexpr int kMaxRanks = 1024;
// A case's time limit, in seconds, wherever it is given (--timeout, a suite's `timeout`):
// below a tenth of a second no rank starts in time, and past a day the deadline's clock
// arithmetic is not worth trusting (1e10 s ended cases at once, as crashes).
inline constexpr double kMinTimeoutS = 0.1;
inline constexpr double kMaxTimeoutS = 86400.0;
// "a number of seconds from 0.1 to 86400", for the errors that name the range.
std::string timeout_range();

// Progress modes as cases, ids and reports spell them: async, calls, sync_only (CLI values
// are snake_case, like `--sync flush_local`).
const std::vector<std::string>& progress_modes();
// The window paths and the backends this build has, as the implementation names them.
const std::vector<std::string>& path_names();
const std::vector<std::string>& backend_names();
const std::vector<std::string>& protocol_names();  // the am protocols
// The canonical spelling of a progress mode; "sync-only", the old spelling that users'
// scripts and manifests may hold, is still accepted and becomes "sync_only".
std::string canonical_progress(const std::string& mode);

// True when `path` is a suite manifest (its table has `cases`).
bool is_manifest(const std::string& path);

// `check_declared`: every -o must name an option a script of `input` declares. A run of
// several inputs checks them together instead (check_options_declared): an option may be
// meant for one of them.
Expansion expand(const std::string& input, const Overrides& o, bool check_declared = true);
// Every -o names an option some script of `out` declares (scripts that failed to load are
// not held against it: their cases report the load error); else a UsageError naming `what`.
void check_options_declared(const Overrides& o, const Expansion& out, const std::string& what);

}  // namespace harness::suite
