// The result model's behaviour and its JSON form (rmabench.report/v1).
//
// The reader accepts exactly what reports/schema/report.schema.json accepts for the fields
// it reads: the same fields are required, the same types and enums enforced, unknown fields
// ignored (the format grows by adding fields). Errors name the field by its path in the
// document, e.g. "cases[3].messages.by_type.lock", so a broken baseline is quick to fix.
#include "reports/model.hpp"

#include "reports/benchmark_runs.hpp"
#include "reports/trace.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace reports {

namespace {

using nlohmann::json;

constexpr std::array<std::pair<Verdict, std::string_view>, 9> verdict_names{{
    {Verdict::pass, "pass"},
    {Verdict::fail, "fail"},
    {Verdict::error, "error"},
    {Verdict::crash, "crash"},
    {Verdict::timeout, "timeout"},
    {Verdict::deadlock, "deadlock"},
    {Verdict::skip, "skip"},
    {Verdict::interrupted, "interrupted"},
    {Verdict::impl_defined, "impl_defined"},
}};

constexpr std::array<std::pair<Expected, std::string_view>, 3> expected_names{
    {{Expected::pass, "pass"}, {Expected::deadlock, "deadlock"}, {Expected::race, "race"}}};

// ---- writing --------------------------------------------------------------------------

json counts_to_json(const std::map<std::string, std::uint64_t>& m) {
  json j = json::object();
  for (const auto& [k, v] : m) j[k] = v;
  return j;
}

json messages_to_json(const MessageCounts& m) {
  json j{{"measured", m.measured},
         {"total", m.total},
         {"by_type", counts_to_json(m.by_type)},
         {"transport", counts_to_json(m.transport)},
         {"direct", counts_to_json(m.direct)},
         {"datatypes", counts_to_json(m.datatypes)},
         {"expected", counts_to_json(m.expected)},
         {"varies", m.varies}};
  // Not observable: null, never a zero, and why.
  if (!m.unobservable.empty()) {
    j["total"] = nullptr;
    j["reason"] = m.unobservable;
  }
  return j;
}

// JSON has no NaN or infinity; a metric that is not finite is written as null.
json metrics_to_json(const std::map<std::string, double>& m) {
  json j = json::object();
  for (const auto& [k, v] : m) j[k] = std::isfinite(v) ? json(v) : json(nullptr);
  return j;
}

json context_to_json(const RunContext& c) {
  return json{{"rmabench_version", c.rmabench_version},
              {"git_revision", c.git_revision},
              {"host", c.host},
              {"command", c.command},
              {"started_at", c.started_at},
              {"topology", c.topology},
              {"options", c.options},
              {"suites", c.suites}};
}

// ---- reading --------------------------------------------------------------------------

[[noreturn]] void bad(const std::string& path, std::string_view what) {
  throw std::runtime_error("report: field '" + path + "' " + std::string(what));
}

std::string child(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string item(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

const json& require(const json& obj, std::string_view key, const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end()) bad(child(path, key), "is missing");
  return *it;
}

// The value at obj[key], or nullptr when the key is absent (for optional fields).
const json* optional(const json& obj, std::string_view key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const json& as_object(const json& j, const std::string& path) {
  if (!j.is_object()) bad(path, "must be an object");
  return j;
}

const json& as_array(const json& j, const std::string& path) {
  if (!j.is_array()) bad(path, "must be an array");
  return j;
}

std::string as_string(const json& j, const std::string& path) {
  if (!j.is_string()) bad(path, "must be a string");
  return j.get<std::string>();
}

bool as_bool(const json& j, const std::string& path) {
  if (!j.is_boolean()) bad(path, "must be a boolean");
  return j.get<bool>();
}

double as_number(const json& j, const std::string& path) {
  if (!j.is_number()) bad(path, "must be a number");
  return j.get<double>();
}

// How long a run or a case took, in seconds: never negative.
double as_duration(const json& j, const std::string& path) {
  const double v = as_number(j, path);
  if (!(v >= 0)) bad(path, "must be a number of seconds >= 0");
  return v;
}

int as_int(const json& j, const std::string& path, int min) {
  if (!j.is_number_integer()) bad(path, "must be an integer");
  constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
  if (j.is_number_unsigned()) {
    if (j.get<std::uint64_t>() > max) bad(path, "is out of range");
    return static_cast<int>(j.get<std::uint64_t>());
  }
  const auto v = j.get<std::int64_t>();
  if (v < min || v > static_cast<std::int64_t>(max)) bad(path, "is out of range");
  return static_cast<int>(v);
}

std::uint64_t as_count(const json& j, const std::string& path) {
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  if (j.is_number_integer() && j.get<std::int64_t>() >= 0) {
    return static_cast<std::uint64_t>(j.get<std::int64_t>());
  }
  bad(path, "must be a non-negative integer");
}

std::string req_string(const json& obj, std::string_view key, const std::string& path) {
  return as_string(require(obj, key, path), child(path, key));
}

std::map<std::string, std::uint64_t> counts_from_json(const json& j, const std::string& path) {
  std::map<std::string, std::uint64_t> m;
  for (const auto& [k, v] : as_object(j, path).items()) m[k] = as_count(v, child(path, k));
  return m;
}

std::map<std::string, std::uint64_t> optional_counts(const json& obj, std::string_view key,
                                                     const std::string& path) {
  const json* j = optional(obj, key);
  return j ? counts_from_json(*j, child(path, key)) : std::map<std::string, std::uint64_t>{};
}

std::vector<std::string> strings_from_json(const json& j, const std::string& path) {
  std::vector<std::string> v;
  const json& a = as_array(j, path);
  for (std::size_t i = 0; i < a.size(); ++i) v.push_back(as_string(a[i], item(path, i)));
  return v;
}

MessageCounts messages_from_json(const json& j, const std::string& path) {
  as_object(j, path);
  MessageCounts m;
  m.measured = as_bool(require(j, "measured", path), child(path, "measured"));
  const json& total = require(j, "total", path);
  if (total.is_null()) {
    // Not observable: the reason is the point of the null.
    if (m.measured) bad(child(path, "total"), "is null but 'measured' is true");
    const json* r = optional(j, "reason");
    m.unobservable = r ? as_string(*r, child(path, "reason")) : "";
    if (m.unobservable.empty()) bad(child(path, "reason"), "must say why 'total' is null");
  } else {
    m.total = as_count(total, child(path, "total"));
  }
  m.by_type = counts_from_json(require(j, "by_type", path), child(path, "by_type"));
  m.transport = optional_counts(j, "transport", path);
  m.direct = optional_counts(j, "direct", path);
  m.datatypes = optional_counts(j, "datatypes", path);
  m.expected = optional_counts(j, "expected", path);
  if (j.contains("varies")) m.varies = as_bool(j["varies"], child(path, "varies"));
  return m;
}

Failure failure_from_json(const json& j, const std::string& path) {
  as_object(j, path);
  Failure f;
  f.rank = as_int(require(j, "rank", path), child(path, "rank"), -1);
  f.where = req_string(j, "where", path);
  f.message = req_string(j, "message", path);
  return f;
}

json race_access_to_json(const RaceAccess& a) {
  return json{{"rank", a.rank},     {"where", a.where}, {"op", a.op}, {"window", a.window},
              {"target", a.target}, {"lo", a.lo},       {"hi", a.hi}, {"epoch", a.epoch}};
}

RaceAccess race_access_from_json(const json& j, const std::string& path) {
  as_object(j, path);
  RaceAccess a;
  a.rank = as_int(require(j, "rank", path), child(path, "rank"), -1);
  a.where = req_string(j, "where", path);
  a.op = req_string(j, "op", path);
  a.window = as_int(require(j, "window", path), child(path, "window"), -1);
  a.target = as_int(require(j, "target", path), child(path, "target"), -1);
  for (auto [key, field] : {std::pair{"lo", &a.lo}, std::pair{"hi", &a.hi}}) {
    const json& v = require(j, key, path);
    if (!v.is_number_unsigned()) bad(child(path, key), "must be an integer >= 0");
    *field = v.get<std::uint64_t>();
  }
  a.epoch = req_string(j, "epoch", path);
  return a;
}

Race race_from_json(const json& j, const std::string& path) {
  as_object(j, path);
  Race r;
  r.rule = req_string(j, "rule", path);
  r.first = race_access_from_json(require(j, "first", path), child(path, "first"));
  r.second = race_access_from_json(require(j, "second", path), child(path, "second"));
  r.why = req_string(j, "why", path);
  return r;
}

CaseResult case_from_json(const json& j, const std::string& path) {
  as_object(j, path);
  CaseResult c;
  c.id = req_string(j, "id", path);
  if (c.id.empty()) bad(child(path, "id"), "must not be empty");
  c.script = req_string(j, "script", path);
  c.name = req_string(j, "name", path);
  const std::string status = req_string(j, "status", path);
  const auto parsed = parse_verdict(status);
  if (!parsed) bad(child(path, "status"), "has unknown status '" + status + "'");
  c.status = *parsed;
  const std::string expected = req_string(j, "expected", path);
  const auto expects = parse_expected(expected);
  if (!expects)
    bad(child(path, "expected"),
        "must be \"pass\", \"deadlock\" or \"race\", not '" + expected + "'");
  c.expected = *expects;
  c.ranks = as_int(require(j, "ranks", path), child(path, "ranks"), 0);
  c.backend = req_string(j, "backend", path);
  c.provider = req_string(j, "provider", path);
  c.path = req_string(j, "path", path);
  if (const json* i = optional(j, "impl")) c.impl = as_string(*i, child(path, "impl"));
  c.progress = req_string(j, "progress", path);
  if (const json* p = optional(j, "protocol")) c.protocol = as_string(*p, child(path, "protocol"));
  c.duration_s = as_duration(require(j, "duration_s", path), child(path, "duration_s"));
  c.messages = messages_from_json(require(j, "messages", path), child(path, "messages"));
  const std::string fpath = child(path, "failures");
  const json& failures = as_array(require(j, "failures", path), fpath);
  for (std::size_t i = 0; i < failures.size(); ++i) {
    c.failures.push_back(failure_from_json(failures[i], item(fpath, i)));
  }

  // Details: optional, so a minimal report written by another tool still reads.
  if (const json* o = optional(j, "options")) {
    const std::string opath = child(path, "options");
    for (const auto& [k, v] : as_object(*o, opath).items()) {
      c.options[k] = as_string(v, child(opath, k));
    }
  }
  if (const json* t = optional(j, "tags")) c.tags = strings_from_json(*t, child(path, "tags"));
  if (const json* r = optional(j, "reason")) c.reason = as_string(*r, child(path, "reason"));
  if (const json* m = optional(j, "metrics")) {
    const std::string mpath = child(path, "metrics");
    for (const auto& [k, v] : as_object(*m, mpath).items()) {
      c.metrics[k] =
          v.is_null() ? std::numeric_limits<double>::quiet_NaN() : as_number(v, child(mpath, k));
    }
  }
  if (const json* s = optional(j, "rank_states")) {
    c.rank_states = as_array(*s, child(path, "rank_states"));
  }
  if (const json* l = optional(j, "log")) c.log = strings_from_json(*l, child(path, "log"));
  if (const json* b = optional(j, "binding")) {
    c.binding = strings_from_json(*b, child(path, "binding"));
  }
  if (const json* h = optional(j, "hosts")) c.hosts = strings_from_json(*h, child(path, "hosts"));
  if (const json* r = optional(j, "races")) {
    const std::string rpath = child(path, "races");
    const json& list = as_array(*r, rpath);
    for (std::size_t i = 0; i < list.size(); ++i)
      c.races.push_back(race_from_json(list[i], item(rpath, i)));
  }
  if (const json* t = optional(j, "trace"); t && !t->is_null()) {
    trace_from_json(*t, child(path, "trace"));  // names what is wrong now, not in a writer
    c.trace = *t;
  }
  return c;
}

RunContext context_from_json(const json& j, const std::string& path) {
  as_object(j, path);
  RunContext c;
  c.rmabench_version = req_string(j, "rmabench_version", path);
  c.git_revision = req_string(j, "git_revision", path);
  c.host = req_string(j, "host", path);
  c.command = req_string(j, "command", path);
  c.started_at = req_string(j, "started_at", path);
  c.topology = as_object(require(j, "topology", path), child(path, "topology"));
  c.options = as_object(require(j, "options", path), child(path, "options"));
  if (const auto s = j.find("suites"); s != j.end()) {
    if (!s->is_array()) bad(child(path, "suites"), "is not an array");
    c.suites = *s;
  }
  return c;
}

Summary summary_from_json(const json& j, const std::string& path) {
  as_object(j, path);
  Summary s;
  s.passed = as_int(require(j, "passed", path), child(path, "passed"), 0);
  s.failed = as_int(require(j, "failed", path), child(path, "failed"), 0);
  s.skipped = as_int(require(j, "skipped", path), child(path, "skipped"), 0);
  // Reports written before the verdict existed have no count: none was interrupted.
  if (const json* i = optional(j, "interrupted")) {
    s.interrupted = as_int(*i, child(path, "interrupted"), 0);
  }
  if (const json* d = optional(j, "impl_defined")) {
    s.impl_defined = as_int(*d, child(path, "impl_defined"), 0);
  }
  s.duration_s = as_duration(require(j, "duration_s", path), child(path, "duration_s"));
  return s;
}

// A Google Benchmark entry is kept as it is, but the fields a reader takes a figure from must
// have Google Benchmark's types: a time that is not a number, or a unit nobody knows, would
// otherwise be read as "no figure" and the benchmark silently not compared. A number may be
// null (a NaN or infinity: bench_runner writes those as null).
void check_benchmark(const json& e, const std::string& path) {
  as_object(e, path);
  req_string(e, "name", path);
  for (const char* key : {"run_name", "aggregate_name", "aggregate_unit", "error_message"}) {
    if (const json* v = optional(e, key)) as_string(*v, child(path, key));
  }
  if (const json* v = optional(e, "run_type")) {
    const std::string t = as_string(*v, child(path, "run_type"));
    if (t != "iteration" && t != "aggregate") {
      bad(child(path, "run_type"), "must be \"iteration\" or \"aggregate\", not '" + t + "'");
    }
  }
  if (const json* v = optional(e, "time_unit")) {
    const std::string u = as_string(*v, child(path, "time_unit"));
    if (!ns_per_unit(e)) {
      bad(child(path, "time_unit"), std::string("must be ") + kTimeUnits + ", not '" + u + "'");
    }
  }
  for (const char* key : {"real_time", "cpu_time", "bytes_per_second"}) {
    if (const json* v = optional(e, key); v && !v->is_null()) {
      // A negative one is read: the gate refuses it naming what a time must be.
      if (!v->is_number()) bad(child(path, key), "must be a number or null");
    }
  }
  for (const char* key : {"repetitions", "repetition_index", "iterations", "threads"}) {
    if (const json* v = optional(e, key)) as_count(*v, child(path, key));
  }
  if (const json* v = optional(e, "error_occurred")) as_bool(*v, child(path, "error_occurred"));
}

}  // namespace

std::string_view to_string(Verdict s) {
  for (const auto& [status, name] : verdict_names) {
    if (status == s) return name;
  }
  return "error";  // unreachable for a valid enumerator
}

std::optional<Verdict> parse_verdict(std::string_view s) {
  for (const auto& [status, name] : verdict_names) {
    if (name == s) return status;
  }
  return std::nullopt;
}

std::string_view to_string(Expected e) {
  for (const auto& [value, name] : expected_names)
    if (value == e) return name;
  return "pass";  // unreachable for a valid enumerator
}

std::optional<Expected> parse_expected(std::string_view s) {
  for (const auto& [value, name] : expected_names)
    if (name == s) return value;
  return std::nullopt;
}

bool CaseResult::passed() const {
  // A must-deadlock case that ran to completion did not show the semantics it tests.
  return expected == Expected::deadlock ? status == Verdict::deadlock : status == Verdict::pass;
}

void Report::finish() {
  summary.passed = summary.failed = summary.skipped = summary.interrupted = 0;
  summary.impl_defined = 0;
  for (const auto& c : cases) {
    if (c.skipped()) {
      ++summary.skipped;
    } else if (c.impl_defined()) {
      ++summary.impl_defined;
    } else if (c.interrupted()) {
      ++summary.interrupted;
    } else if (c.passed()) {
      ++summary.passed;
    } else {
      ++summary.failed;
    }
  }
}

nlohmann::json to_json(const CaseResult& c) {
  json failures = json::array();
  for (const auto& f : c.failures) {
    failures.push_back({{"rank", f.rank}, {"where", f.where}, {"message", f.message}});
  }
  json options = json::object();
  for (const auto& [k, v] : c.options) options[k] = v;
  json races = json::array();
  for (const auto& r : c.races)
    races.push_back({{"rule", r.rule},
                     {"first", race_access_to_json(r.first)},
                     {"second", race_access_to_json(r.second)},
                     {"why", r.why}});
  json out{{"id", c.id},
           {"script", c.script},
           {"name", c.name},
           {"status", to_string(c.status)},
           {"expected", to_string(c.expected)},
           {"ranks", c.ranks},
           {"backend", c.backend},
           {"provider", c.provider},
           {"path", c.path},
           {"impl", c.impl},
           {"progress", c.progress},
           {"protocol", c.protocol},
           {"duration_s", c.duration_s},
           {"options", options},
           {"tags", c.tags},
           {"messages", messages_to_json(c.messages)},
           {"failures", failures},
           {"reason", c.reason},
           {"metrics", metrics_to_json(c.metrics)},
           {"rank_states", c.rank_states.is_array() ? c.rank_states : json::array()},
           {"log", c.log},
           {"binding", c.binding}};
  // Only with findings: a report of a run without the checker stays as it was.
  if (!races.empty()) out["races"] = std::move(races);
  if (!c.hosts.empty()) out["hosts"] = c.hosts;  // only where ranks said where they ran
  if (!c.trace.is_null()) out["trace"] = c.trace;
  return out;
}

nlohmann::json to_json(const Report& r) {
  json cases = json::array();
  for (const auto& c : r.cases) cases.push_back(to_json(c));
  json out{{"schema", schema_id},
           {"complete", r.complete},
           {"context", context_to_json(r.context)},
           {"cases", cases},
           {"benchmarks", r.benchmarks.is_array() ? r.benchmarks : json::array()},
           {"summary",
            {{"passed", r.summary.passed},
             {"failed", r.summary.failed},
             {"skipped", r.summary.skipped},
             {"interrupted", r.summary.interrupted},
             {"duration_s", r.summary.duration_s}}}};
  // Only where a case had it: a reference run's summary stays as it was.
  if (r.summary.impl_defined > 0) out["summary"]["impl_defined"] = r.summary.impl_defined;
  return out;
}

Report report_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::runtime_error("report: the document must be a JSON object");
  Report r;
  const std::string schema = req_string(j, "schema", "");
  if (schema != schema_id) {
    bad("schema", "is '" + schema + "', expected '" + std::string(schema_id) + "'");
  }
  // Reports written before runs could be incomplete have no field: they are complete.
  if (const json* c = optional(j, "complete")) r.complete = as_bool(*c, "complete");
  r.context = context_from_json(require(j, "context", ""), "context");
  const json& cases = as_array(require(j, "cases", ""), "cases");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    r.cases.push_back(case_from_json(cases[i], item("cases", i)));
  }
  const json& benchmarks = as_array(require(j, "benchmarks", ""), "benchmarks");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    check_benchmark(benchmarks[i], item("benchmarks", i));
  }
  r.benchmarks = benchmarks;
  r.summary = summary_from_json(require(j, "summary", ""), "summary");
  return r;
}

}  // namespace reports
