// reports/model.hpp — the one result model every report writer reads.
//
// A Report is a run context (what ran, where, with which options), the case results in the
// order they ran, Google Benchmark entries, and a summary. The harness fills it; writers
// (console, JSON, JUnit, Markdown, HTML) and the gate only read it. JSON is the interchange
// form (`rmabench.report/v1`, schema in reports/schema/); from_json() reads a report back.
//
//   reports::Report r;  r.cases.push_back(result);  r.finish();   // computes the summary
//   reports::write_json(r, out);                 // reports/json_writer.hpp
//   reports::write_report_dir(r, dir, formats);  // reports/report_dir.hpp: json, junit, md, html
//
// The structs compare with == (member by member): a report read back equals the one written.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace reports {

inline constexpr std::string_view schema_id = "rmabench.report/v1";

// A case's verdict (the JSON field `status`); not rma::Status, the implementation's error.
// `interrupted`: the run was stopped (a signal, a killed parent) while the case ran; it is
// neither passed nor failed, and the report is then incomplete.
// `impl_defined`: on an MPI library, a case that did not pass where the case declares the
// behaviour it checks is one MPI leaves to the implementation (`impl_defined` in the case
// table: error checks the standard does not require, the reference's extensions); its
// `reason` says what MPI leaves open and what the library did, its failures stay listed.
// Neither passed nor failed (counted apart in the summary); the reference never gets it.
enum class Verdict { pass, fail, error, crash, timeout, deadlock, skip, interrupted, impl_defined };
std::string_view to_string(Verdict s);
std::optional<Verdict> parse_verdict(std::string_view s);

// The verdict a case is written to reach when the implementation is right (the JSON field
// `expected`): a case that must deadlock passes with `deadlock`; one that must race passes
// when the race checker finds the race.
enum class Expected { pass, deadlock, race };
std::string_view to_string(Expected e);
std::optional<Expected> parse_expected(std::string_view s);

struct Failure {
  int rank = -1;      // -1: the harness itself (e.g. a message-count mismatch)
  std::string where;  // "lua_scripts/x.lua:12", "messages", "launcher"
  std::string message;

  bool operator==(const Failure&) const = default;
};

// RMA packets sent during `run`, summed over ranks, per iteration.
struct MessageCounts {
  bool measured = false;
  std::uint64_t total = 0;
  // Why the count could not be observed at all ("not observable in mpich 4.0.2": an MPI
  // library's packets are its own). Non-empty: JSON `total` is null, `reason` says this, and
  // the gate treats the count as not comparable. Empty on the reference (a case that did not
  // measure, e.g. a skip, keeps total 0 and measured false, as before).
  std::string unobservable;
  std::map<std::string, std::uint64_t> by_type;    // packet type -> count (non-zero only)
  std::map<std::string, std::uint64_t> transport;  // transport traffic beside the RMA packets
  std::map<std::string, std::uint64_t> direct;     // direct-path remote memory operations
  // Derived-type ops on the am path: descriptions, description_bytes, cache_hits.
  std::map<std::string, std::uint64_t> datatypes;
  // What the case declared (`messages` in the script): "total" and packet types.
  std::map<std::string, std::uint64_t> expected;
  // The script said the count depends on timing (`messages = "varies"`: retry and polling
  // loops): reported, never checked nor gated.
  bool varies = false;

  bool operator==(const MessageCounts&) const = default;
};

// One access a race finding names (`--check races`): who made it, where in the script, what
// it touched and in which epoch.
struct RaceAccess {
  int rank = -1;
  std::string where;             // script file:line
  std::string op;                // put, get, ..., load, store, lock, fence
  int window = -1;               // window id (-1: not a window access)
  int target = -1;               // whose window memory
  std::uint64_t lo = 0, hi = 0;  // byte range [lo, hi) in the target's window
  std::string epoch;             // "fence epoch 2", "lock(1, shared) at x.lua:9", ...

  bool operator==(const RaceAccess&) const = default;
};

// A finding of `--check races`: two accesses MPI's rules say conflict with nothing ordering
// them (rule "conflict"), or an assert or nocheck promise that was false (rule = the assert).
struct Race {
  std::string rule;
  RaceAccess first, second;
  std::string why;

  bool operator==(const Race&) const = default;
};

struct CaseResult {
  std::string id;      // suite/script[backend,path,np=N,k=v]
  std::string script;  // path of the Lua script
  std::string name;    // the script's stem, as in the id: the pattern's one name
  Verdict status = Verdict::error;
  Expected expected = Expected::pass;
  int ranks = 0;
  std::string backend;
  std::string provider;  // fabric provider, "" on shm
  std::string path;      // am | direct: the path the windows ran (from the ranks); "" on a library
  // The implementation under test: "ref", or the library as its ranks name it with its
  // version ("mpich 4.0.2", "openmpi 4.1.4 osc=sm"). Reports from before it: "ref".
  std::string impl = "ref";
  std::string progress;  // async | calls | sync_only
  std::string protocol;  // am packet protocol: fewest | ch3 ("" in reports from before it)
  double duration_s = 0;
  std::map<std::string, std::string> options;  // script options in effect
  std::vector<std::string> tags;
  MessageCounts messages;
  std::vector<Failure> failures;
  std::string reason;                     // skip reason, crash detail, timeout detail
  std::map<std::string, double> metrics;  // values a script reported (rma.metric)
  nlohmann::json rank_states = nlohmann::json::array();  // on deadlock / timeout / crash
  std::vector<std::string> log;                          // rma.log lines, "rank N: text"
  std::vector<std::string> binding;                      // per rank: "core 0", "none"
  // Per rank, where it ran as its hello said ("host1 (netns NAME)"); empty where ranks do
  // not say (the reference's own fork: all on the parent's host).
  std::vector<std::string> hosts;
  std::vector<Race> races;  // --check races findings (empty without the checker)
  // --trace: the case's calls and packets, reports/trace.hpp's JSON form; null untraced.
  nlohmann::json trace;

  // A case passed when its status is what it expected (pass, or deadlock for must-deadlock);
  // a must-deadlock case that ran to completion did not pass. A skip is neither passed nor
  // failed.
  bool passed() const;
  bool skipped() const { return status == Verdict::skip; }
  bool interrupted() const { return status == Verdict::interrupted; }
  bool impl_defined() const { return status == Verdict::impl_defined; }
  // Counted as failed: neither passed, skipped, interrupted nor implementation-defined.
  bool failed() const { return !passed() && !skipped() && !interrupted() && !impl_defined(); }

  bool operator==(const CaseResult&) const = default;
};

struct Summary {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  double duration_s = 0;
  int interrupted = 0;   // after duration_s: {passed, failed, skipped, duration_s} still reads
  int impl_defined = 0;  // cases whose outcome MPI leaves to the implementation (a library's)

  bool operator==(const Summary&) const = default;
};

struct RunContext {
  std::string rmabench_version;
  std::string git_revision;
  std::string host;
  std::string command;                                 // the command line
  std::string started_at;                              // ISO 8601 UTC
  nlohmann::json topology = nlohmann::json::object();  // hwloc summary
  nlohmann::json options = nlohmann::json::object();   // CLI options of the run
  // The suites run: [{name, path, hash}] (absent in reports from before it: empty).
  nlohmann::json suites = nlohmann::json::array();

  bool operator==(const RunContext&) const = default;
};

struct Report {
  RunContext context;
  std::vector<CaseResult> cases;
  nlohmann::json benchmarks = nlohmann::json::array();  // Google Benchmark's entries
  Summary summary;
  // False when the run did not finish (stopped by a signal, or rebuilt from the records of a
  // killed run): cases are missing, and the report is no baseline. Absent in JSON: true.
  bool complete = true;

  // Recomputes the summary from the cases (keeps summary.duration_s).
  void finish();

  bool operator==(const Report&) const = default;
};

// JSON form (rmabench.report/v1) and back; from_json throws std::runtime_error naming the
// field that is missing or wrong ("report: field 'cases[2].status' has unknown status ...").
// It requires what reports/schema/report.schema.json requires and ignores unknown fields.
// A metric that is not finite is written as null and read back as NaN. Strings must be
// valid UTF-8 for nlohmann::json::dump(); write_json() replaces invalid bytes instead.
nlohmann::json to_json(const Report& r);
nlohmann::json to_json(const CaseResult& c);
Report report_from_json(const nlohmann::json& j);

}  // namespace reports
