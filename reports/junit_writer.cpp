#include "reports/junit_writer.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "reports/rank_state_text.hpp"
#include "reports/text_format.hpp"
#include "reports/xml_text.hpp"

namespace reports {

namespace {

struct Suite {
  std::string name;
  std::vector<const CaseResult*> cases;
  int failures = 0;
  int errors = 0;
  int skipped = 0;
  double time = 0;
};

// Ids without a suite prefix (a single script run) still need a suite to live in.
std::string suite_of(const std::string& id) {
  const auto slash = id.find('/');
  return slash == std::string::npos || slash == 0 ? std::string("rmabench") : id.substr(0, slash);
}

enum class Outcome { passed, failure, error, skipped };

Outcome outcome(const CaseResult& c) {
  // An interrupted case is no failure: CI tools show a skip with the message below.
  // So is an implementation-defined outcome: a skip whose message says what MPI leaves open.
  if (c.skipped() || c.interrupted() || c.impl_defined()) return Outcome::skipped;
  if (c.passed()) return Outcome::passed;
  return c.status == Verdict::error ? Outcome::error : Outcome::failure;
}

std::vector<Suite> group(const Report& r) {
  std::vector<Suite> suites;
  for (const auto& c : r.cases) {
    const std::string name = suite_of(c.id);
    Suite* s = nullptr;
    for (auto& existing : suites) {
      if (existing.name == name) s = &existing;
    }
    if (!s) s = &suites.emplace_back(Suite{name, {}, 0, 0, 0, 0});
    s->cases.push_back(&c);
    s->time += c.duration_s;
    switch (outcome(c)) {
      case Outcome::failure:
        ++s->failures;
        break;
      case Outcome::error:
        ++s->errors;
        break;
      case Outcome::skipped:
        ++s->skipped;
        break;
      case Outcome::passed:
        break;
    }
  }
  return suites;
}

std::string seconds(double s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", s >= 0 ? s : 0.0);
  return buf;
}

std::string failure_line(const Failure& f) {
  const std::string rank = f.rank < 0 ? "-" : std::to_string(f.rank);
  return "rank " + rank + "  " + (f.where.empty() ? "" : f.where + ": ") + f.message;
}

// One line for the message attribute; CI tools show it as the headline.
std::string headline(const CaseResult& c) {
  std::string h;
  if (!c.failures.empty()) {
    h = failure_line(c.failures.front());
    if (c.failures.size() > 1) {
      h += " (+" + std::to_string(c.failures.size() - 1) + " more)";
    }
  } else if (!c.reason.empty()) {
    h = c.reason;
  } else if (c.status == Verdict::pass) {
    h = "expected a deadlock, but the case ran to completion";
  } else {
    h = std::string(to_string(c.status));
  }
  return h;
}

std::string failure_body(const CaseResult& c) {
  std::string body;
  for (const auto& f : c.failures) body += failure_line(f) + "\n";
  if (c.status == Verdict::pass) body += "expected a deadlock, but the case ran to completion\n";
  if (!c.reason.empty()) body += "reason: " + c.reason + "\n";
  for (const auto& r : c.races)
    body += "race " + race_headline(r) + "\n  " + race_access_text(r.first) + "\n  " +
            race_access_text(r.second) + "\n  " + r.why + "\n";
  if (c.rank_states.is_array() && !c.rank_states.empty()) {
    body += "rank states:\n";
    for (const auto& s : c.rank_states) {
      const RankStateText t = describe_rank_state(s);
      body += "  " + t.headline + "\n";
      for (const auto& w : t.windows) body += "    " + w + "\n";
      if (!t.counters.empty()) body += "    " + t.counters + "\n";
    }
  }
  return body;
}

std::string system_out(const CaseResult& c) {
  std::string out;
  if (c.messages.measured) {
    out += "messages: " + std::to_string(c.messages.total);
    std::string types;
    for (const auto& [type, n] : c.messages.by_type) {
      types += (types.empty() ? "" : ", ") + type + "=" + std::to_string(n);
    }
    out += types.empty() ? "\n" : " (" + types + ")\n";
  } else if (!c.messages.unobservable.empty()) {
    out += "messages: \u2014 (" + c.messages.unobservable + ")\n";
  }
  for (const auto& line : c.log) out += line + "\n";
  return out;
}

void write_case(const CaseResult& c, const std::string& suite, std::ostream& out) {
  out << "    <testcase classname=\"" << xml_attribute(suite) << "\" name=\"" << xml_attribute(c.id)
      << "\" time=\"" << seconds(c.duration_s) << "\"";
  const Outcome o = outcome(c);
  const std::string sysout = system_out(c);
  if (o == Outcome::passed && sysout.empty()) {
    out << "/>\n";
    return;
  }
  out << ">\n";
  if (o == Outcome::skipped) {
    const std::string why = c.interrupted()
                                ? "interrupted: the run was stopped while this case ran" +
                                      (c.reason.empty() ? std::string() : " (" + c.reason + ")")
                            : c.impl_defined() ? "impl_defined: " + c.reason
                                               : c.reason;
    out << "      <skipped message=\"" << xml_attribute(why) << "\"/>\n";
  } else if (o != Outcome::passed) {
    const char* element = o == Outcome::error ? "error" : "failure";
    out << "      <" << element << " message=\"" << xml_attribute(headline(c)) << "\" type=\""
        << to_string(c.status) << "\">" << xml_text(failure_body(c)) << "</" << element << ">\n";
  }
  if (!sysout.empty()) out << "      <system-out>" << xml_text(sysout) << "</system-out>\n";
  out << "    </testcase>\n";
}

void write_property(std::ostream& out, const char* name, const std::string& value) {
  out << "      <property name=\"" << name << "\" value=\"" << xml_attribute(value) << "\"/>\n";
}

}  // namespace

void write_junit(const Report& r, std::ostream& out) {
  const std::vector<Suite> suites = group(r);
  int failures = 0, errors = 0, skipped = 0;
  double time = 0;
  for (const auto& s : suites) {
    failures += s.failures;
    errors += s.errors;
    skipped += s.skipped;
    time += s.time;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"rmabench\" tests=\"" << r.cases.size() << "\" failures=\"" << failures
      << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\"" << seconds(time)
      << "\">\n";
  for (const auto& s : suites) {
    out << "  <testsuite name=\"" << xml_attribute(s.name) << "\" tests=\"" << s.cases.size()
        << "\" failures=\"" << s.failures << "\" errors=\"" << s.errors << "\" skipped=\""
        << s.skipped << "\" time=\"" << seconds(s.time) << "\" hostname=\""
        << xml_attribute(r.context.host) << "\">\n";
    out << "    <properties>\n";
    write_property(out, "rmabench_version", r.context.rmabench_version);
    write_property(out, "git_revision", r.context.git_revision);
    write_property(out, "command", r.context.command);
    write_property(out, "started_at", r.context.started_at);
    out << "    </properties>\n";
    for (const CaseResult* c : s.cases) write_case(*c, s.name, out);
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace reports
