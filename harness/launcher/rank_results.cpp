#include "launcher/rank_results.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <map>
#include <set>
#include <string>

#include "races/checker.hpp"
#include "rma/state.hpp"
#include "suite/case_table.hpp"

namespace harness::launcher {
namespace {

using nlohmann::json;

// The member `key` of `j`, or an empty object: a reference, so range-for over it is safe.
const json& member(const json& j, const char* key) {
  static const json empty_object = json::object();
  auto it = j.find(key);
  return it == j.end() ? empty_object : *it;
}

void check_declared(const json& expected, reports::CaseResult& result_);
void check_races(const std::vector<json>& results, reports::CaseResult& result_);

}  // namespace

bool stuck_at_deadline(const json& state, double timeout_s) {
  if (!state.is_object() || !state.value("blocked", false)) return false;
  const auto since = state.find("since_s");
  if (since == state.end() || !since->is_number()) return true;
  return since->get<double>() >= std::min(rma::kStuckAfterS, timeout_s / 4);
}

reports::CaseResult base_result(const suite::CaseSpec& spec) {
  reports::CaseResult r;
  r.id = spec.id;
  r.name = spec.stem;  // the pattern's one name, as in the id
  r.script = spec.script;
  r.expected = spec.expected;
  r.ranks = spec.ranks;
  r.backend = spec.backend;
  r.provider = spec.provider;
  r.path = spec.path_name();
  if (!spec.on_reference()) {
    // Backend and path are the reference's; the ranks name the library and its version.
    r.backend.clear();
    r.path.clear();
    r.impl = spec.impl;
  }
  r.progress = suite::name(spec.progress);
  r.protocol = suite::protocols_text(spec);
  r.options = spec.options;
  r.tags = spec.tags;
  return r;
}

namespace {

// What the ranks' results add up to, read one rank at a time.
struct Tally {
  int worst = -1;  // worst status seen: 0 pass, 1 skip, 2 fail, 3 error
  std::map<std::string, std::uint64_t> by_type, transport, direct, datatypes;
  std::set<std::string> paths;
  bool measured = false;
  std::string unobservable;  // a rank's reason its packets cannot be counted
  std::int64_t iterations = 1;
  json expected;
};

void add_sums(const json& from, std::map<std::string, std::uint64_t>& into) {
  for (const auto& [k, v] : from.items()) into[k] += v.get<std::uint64_t>();
}

void tally_rank(int rank_no, const json& m, Tally& t, reports::CaseResult& result_) {
  const auto st = reports::parse_verdict(m.value("status", "error"));
  using reports::Verdict;
  const int sev = st == Verdict::pass ? 0 : st == Verdict::skip ? 1 : st == Verdict::fail ? 2 : 3;
  t.worst = std::max(t.worst, sev);
  if (st == Verdict::skip && result_.reason.empty()) result_.reason = m.value("reason", "");
  for (const auto& f : member(m, "failures"))
    result_.failures.push_back({rank_no, f.value("where", ""), f.value("message", "")});
  for (const auto& [k, v] : member(m, "metrics").items()) {
    // A script's value: one that is not a number (a NaN arrives as null) is that rank's
    // error, not an exception that would end the whole run.
    if (v.is_number()) {
      result_.metrics["rank" + std::to_string(rank_no) + "." + k] = v.get<double>();
    } else {
      result_.failures.push_back(
          {rank_no, "metrics", "metric " + k + " is " + v.dump() + ", not a finite number"});
      t.worst = 3;
    }
  }
  for (const auto& p : member(m, "paths")) t.paths.insert(p.get<std::string>());
  // null: the rank's implementation could not observe its packets (not measured, not 0).
  if (m.contains("messages_reason") && m["messages_reason"].is_string())
    t.unobservable = m["messages_reason"].get<std::string>();
  if (m.contains("messages") && m["messages"].is_object()) {
    t.measured = true;
    t.iterations = m.value("iterations", 1);
    add_sums(member(member(m, "messages"), "by_type"), t.by_type);
    add_sums(member(member(m, "messages"), "transport"), t.transport);
    add_sums(member(member(m, "messages"), "direct"), t.direct);
    add_sums(member(member(m, "messages"), "datatypes"), t.datatypes);
  }
  if (m.contains("expected_messages")) t.expected = m["expected_messages"];
}

// The case's path and implementation, as the ranks named them.
void name_paths_and_impl(const std::vector<json>& results, const Tally& t,
                         const std::string& named_impl, reports::CaseResult& result_) {
  if (!t.paths.empty()) {
    std::string p;
    for (const auto& s : t.paths) p += (p.empty() ? "" : ",") + s;
    result_.path = p;
  }
  // An MPI library's ranks name it with its version ("mpich 4.0.2", "openmpi 4.1.4 osc=sm"):
  // the case's `impl`; the path does not apply to a library.
  std::set<std::string> impls;
  for (const auto& m : results)
    if (m.is_object() && m.contains("impl")) impls.insert(m["impl"].get<std::string>());
  if (!impls.empty()) {
    std::string p;
    for (const auto& s : impls) p += (p.empty() ? "" : ",") + s;
    result_.impl = p;
    result_.path.clear();
  }
  if (impls.empty() && !named_impl.empty() && result_.impl != suite::kReferenceImpl) {
    result_.impl = named_impl;  // no result named it: the ranks' hellos did
    result_.path.clear();
  }
  if (!t.measured && result_.impl != suite::kReferenceImpl) {
    // Null with the reason, whatever became of the ranks (a crash reports no result). With
    // no rank heard from, only the run's spelling is known, not the version: say so.
    const std::string in = impls.empty() && named_impl.empty()
                               ? result_.impl + " (its version unknown: no rank named it)"
                               : result_.impl;
    result_.messages.unobservable =
        t.unobservable.empty() ? "not observable in " + in : t.unobservable;
  }
}

// The worst of the ranks' statuses, unless the launcher already judged the case.
void set_status(const Tally& t, reports::CaseResult& result_) {
  if (result_.status == reports::Verdict::crash || result_.status == reports::Verdict::deadlock ||
      result_.status == reports::Verdict::timeout)
    return;
  static const reports::Verdict by_sev[] = {reports::Verdict::pass, reports::Verdict::skip,
                                            reports::Verdict::fail, reports::Verdict::error};
  result_.status = t.worst < 0 ? reports::Verdict::error : by_sev[t.worst];
  if (t.worst < 0) result_.failures.push_back({-1, "launcher", "no rank reported a result"});
}

// The packets summed over ranks, per iteration, checked against the declaration.
void count_messages(Tally& t, reports::CaseResult& result_) {
  auto& msgs = result_.messages;
  msgs.measured = true;
  const auto iterations = static_cast<std::uint64_t>(t.iterations);
  std::uint64_t total = 0;
  const auto per_iter = [&](std::uint64_t v, const std::string& what) {
    if (t.iterations > 1 && v % iterations != 0)
      result_.failures.push_back({-1, "messages",
                                  what + ": " + std::to_string(v) +
                                      " packets are not a whole number per "
                                      "iteration of " +
                                      std::to_string(t.iterations)});
    return v / iterations;
  };
  for (const auto& [k, v] : t.by_type) {
    if (!v) continue;
    msgs.by_type[k] = per_iter(v, k);
    total += msgs.by_type[k];
  }
  msgs.total = total;
  for (const auto& [k, v] : t.transport)
    if (v) msgs.transport[k] = v / iterations;
  for (const auto& [k, v] : t.direct)
    if (v) msgs.direct[k] = v / iterations;
  for (const auto& [k, v] : t.datatypes)
    if (v) msgs.datatypes[k] = v / iterations;
  json expected = t.expected;
  const suite::Declared declared = suite::declared_kind(expected);
  // The direct path sends no packet, except for ops it handed to the am slots: those are
  // reported (messages.direct.am_fallback) and the count is not declared. Their packets
  // depend on timing where the script says the am path's do (a compare_and_swap retry loop
  // on a provider without native atomics): then the gate must not compare them either.
  const auto fb = t.direct.find("am_fallback");
  const bool fell_back = fb != t.direct.end() && fb->second != 0;
  if (declared == suite::Declared::direct || declared == suite::Declared::direct_varies)
    expected = fell_back ? json() : json{{"total", 0}};
  msgs.varies = declared == suite::Declared::varies ||
                (fell_back && declared == suite::Declared::direct_varies);
  check_declared(expected, result_);
}

}  // namespace

// Combines the ranks' results: status (error > fail > skip > pass), failures, metrics, paths,
// and RMA packets during `run` summed over ranks, checked against the declaration.
void merge_rank_results(const std::vector<json>& results, reports::CaseResult& result_,
                        const std::string& named_impl) {
  Tally t;
  for (std::size_t rank = 0; rank < results.size(); ++rank)
    if (results[rank].is_object()) tally_rank(static_cast<int>(rank), results[rank], t, result_);
  name_paths_and_impl(results, t, named_impl, result_);
  set_status(t, result_);
  check_races(results, result_);
  if (t.measured) count_messages(t, result_);
}

void apply_impl_defined(const suite::CaseSpec& spec, reports::CaseResult& r) {
  if (spec.on_reference() || spec.impl_defined.empty()) return;
  if (r.passed() || r.skipped() || r.interrupted() || r.impl_defined()) return;
  std::string did = r.status == reports::Verdict::pass ? "ran to completion (expected a deadlock)"
                                                       : std::string(reports::to_string(r.status));
  // The detail that says most: a rank's failure, else the harness's reason (a deadlock's
  // "every rank is blocked ...", a crash's signal), else the launcher's own line.
  const auto from_rank = std::find_if(r.failures.begin(), r.failures.end(),
                                      [](const reports::Failure& f) { return f.rank >= 0; });
  if (from_rank != r.failures.end()) {
    did += ": rank " + std::to_string(from_rank->rank) + " " +
           (from_rank->where.empty() ? "" : from_rank->where + ": ") + from_rank->message;
  } else if (!r.reason.empty()) {
    did += ": " + r.reason;
  } else if (!r.failures.empty()) {
    did += ": " + r.failures.front().message;
  }
  if (const auto nl = did.find('\n'); nl != std::string::npos) did = did.substr(0, nl) + " ...";
  r.reason =
      "MPI leaves this to the implementation: " + spec.impl_defined + ". " + r.impl + " " + did;
  r.status = reports::Verdict::impl_defined;
}

namespace {

// --check races: the ranks' logs checked together. A finding fails the case unless it
// declared `expect = "race"`; such a case without a finding fails, and without the checker
// it is skipped (what it shows cannot be seen).
void check_races(const std::vector<json>& results, reports::CaseResult& result_) {
  std::vector<json> logs;
  bool recorded = false;
  for (const auto& m : results) {
    const bool has = m.is_object() && m.contains("races_log");
    recorded = recorded || has;
    logs.push_back(has ? m["races_log"] : json());
  }
  const bool ran =
      result_.status == reports::Verdict::pass || result_.status == reports::Verdict::fail;
  const bool expects = result_.expected == reports::Expected::race;
  if (!recorded) {
    if (expects && ran) {
      result_.status = reports::Verdict::skip;
      result_.reason = "expect = \"race\" needs the checker: run with --check races";
    }
    return;
  }
  try {
    result_.races = races::check(logs);
  } catch (const std::exception& e) {
    // Written by the ranks' recorder: unreadable, it is the harness's fault, not the case's,
    // and one case's broken log must not end the run.
    result_.status = reports::Verdict::error;
    result_.failures.push_back(
        {-1, "races", std::string("the race log cannot be read: ") + e.what()});
    return;
  }
  if (!ran) return;
  if (expects && result_.races.empty()) {
    result_.status = reports::Verdict::fail;
    result_.failures.push_back({-1, "races", "expected a race, the checker found none"});
  } else if (!expects && !result_.races.empty()) {
    result_.status = reports::Verdict::fail;
    result_.failures.push_back(
        {-1, "races",
         std::to_string(result_.races.size()) +
             " finding(s) of --check races; first: " + result_.races.front().rule + " between " +
             result_.races.front().first.where + " and " + result_.races.front().second.where});
  }
}

void check_declared(const json& expected, reports::CaseResult& result_) {
  if (!expected.is_object()) return;
  auto& msgs = result_.messages;
  std::string detail;
  for (const auto& [k, v] : msgs.by_type)
    detail += (detail.empty() ? "" : ", ") + k + " " + std::to_string(v);
  if (detail.empty()) detail = "none";
  const bool count_matters =
      result_.status == reports::Verdict::pass || result_.status == reports::Verdict::fail;
  for (const auto& [k, v] : expected.items()) {
    if (!v.is_number_integer()) continue;
    const auto want = v.get<std::uint64_t>();
    msgs.expected[k] = want;
    const std::uint64_t got = k == "total"            ? msgs.total
                              : msgs.by_type.count(k) ? msgs.by_type.at(k)
                                                      : 0;
    if (got != want && count_matters) {
      result_.failures.push_back({-1, "messages",
                                  k + ": declared " + std::to_string(want) + ", measured " +
                                      std::to_string(got) + " (" + detail + ")"});
      result_.status = reports::Verdict::fail;
    }
  }
}

}  // namespace
}  // namespace harness::launcher
