// race_event.cpp — the codec of a race log event (see race_event.hpp). The keys: k (kind),
// at (script file:line), w (window id), t (target, peer, or owner of the memory), du and dyn
// (win: disp_unit, dynamic), lo/hi (byte range of a load, store or early access), d
// (displacement) with n (bytes from it) or r (a derived-type layout's byte runs [offset,
// length] from it; cov: the covering range, grid: false when its elements are not on one
// grid), m (mode: r w a for a remote op, l s for an early access), op, dt (an accumulate's
// basic type), v, cv, ret, old (atomics), a (assert bits), g (group), x (exclusive), tag, and
// early's buf, call, call_at. Which keys an event carries follows from its kind.
#include "races/race_event.hpp"

#include <stdexcept>

namespace harness::races {
namespace {

using nlohmann::json;

[[noreturn]] void bad(const json& j, const std::string& what) {
  throw std::runtime_error("race log: " + what + " in event " + j.dump());
}

char letter(AccessMode m) {
  switch (m) {
    case AccessMode::read:
      return 'r';
    case AccessMode::write:
      return 'w';
    case AccessMode::accumulate:
      return 'a';
    case AccessMode::load:
      return 'l';
    case AccessMode::store:
      return 's';
    case AccessMode::none:
      break;
  }
  return 0;
}

AccessMode mode_of(const json& j, const std::string& m) {
  for (AccessMode x : {AccessMode::read, AccessMode::write, AccessMode::accumulate,
                       AccessMode::load, AccessMode::store})
    if (m.size() == 1 && m[0] == letter(x)) return x;
  bad(j, "unknown mode \"" + m + "\"");
}

std::optional<EventKind> parse_kind(std::string_view s) {
  if (const auto c = call::parse_kind(s)) return of(*c);
  for (EventKind k : {EventKind::win, EventKind::load, EventKind::store, EventKind::early})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

// A remote op's target bytes, mode, op and values (race_event.hpp).
void remote_to_json(const RaceEvent& e, json& j) {
  j["t"] = e.t;
  j["d"] = e.d;
  if (e.runs) {
    json runs = json::array();
    for (const Run& x : *e.runs) runs.push_back({x.off, x.len});
    j["r"] = std::move(runs);
    if (e.cov) j["cov"] = true;
    if (!e.grid) j["grid"] = false;
  } else {
    j["n"] = e.n;
  }
  j["m"] = std::string(1, letter(e.mode));
  if (e.mode == AccessMode::accumulate) {
    j["op"] = std::string(op_name(e));
    j["dt"] = std::string(rma::to_string(e.dt));
  }
  const bool cas = e.kind == EventKind::compare_and_swap;
  if (cas || e.kind == EventKind::fetch_and_op) j["v"] = e.v;
  if (cas) j["cv"] = e.cv;
  if (e.ret) {
    j["ret"] = true;
    j["old"] = e.old;
  }
}

// The fields a synchronization or job call carries beyond its kind, place and window.
void call_to_json(const RaceEvent& e, json& j) {
  switch (e.kind) {
    case EventKind::fence:
    case EventKind::lock_all:
      j["a"] = e.a;
      break;
    case EventKind::post:
    case EventKind::start:
      j["a"] = e.a;
      j["g"] = e.g;
      break;
    case EventKind::lock:
      j["a"] = e.a;
      j["t"] = e.t;
      j["x"] = e.x;
      break;
    case EventKind::unlock:
    case EventKind::flush:
    case EventKind::flush_local:
      j["t"] = e.t;
      break;
    case EventKind::send:
    case EventKind::recv:
      j["t"] = e.t;
      j["tag"] = e.tag;
      break;
    default:
      break;
  }
}

void range_to_json(const RaceEvent& e, json& j) {
  j["w"] = e.w;
  j["t"] = e.t;
  j["lo"] = e.lo;
  j["hi"] = e.hi;
  j["at"] = e.at;
}

// The fields that only some kinds carry; a missing key keeps the default, as the checker
// always read logs.
void optional_from_json(const json& j, RaceEvent& e) {
  if (j.contains("r")) {
    e.runs.emplace();
    for (const auto& run : j["r"])
      e.runs->push_back({run.at(0).get<std::int64_t>(), run.at(1).get<std::uint64_t>()});
  }
  if (j.contains("op")) {
    const std::string op = j["op"].get<std::string>();
    if (e.kind == EventKind::compare_and_swap && op == "cas") {
      e.op = rma::Op::replace;
    } else if (const auto o = rma::parse_op(op)) {
      e.op = *o;
    } else {
      bad(j, "unknown op \"" + op + "\"");
    }
  }
  if (j.contains("dt")) {
    const std::string dt = j["dt"].get<std::string>();
    const auto t = rma::parse_dtype(dt);
    if (!t) bad(j, "unknown type \"" + dt + "\"");
    e.dt = *t;
  }
  if (j.contains("g")) e.g = j["g"].get<std::vector<int>>();
  if (j.contains("call")) {
    const std::string c = j["call"].get<std::string>();
    const auto k = call::parse_kind(c);
    if (!k) bad(j, "unknown call \"" + c + "\"");
    e.call = *k;
  }
  if (j.contains("buf")) {
    const std::string b = j["buf"].get<std::string>();
    if (b == to_string(Buffer::origin)) {
      e.buf = Buffer::origin;
    } else if (b == to_string(Buffer::result)) {
      e.buf = Buffer::result;
    } else {
      bad(j, "unknown buffer \"" + b + "\"");
    }
  }
}

}  // namespace

std::string_view to_string(EventKind k) {
  if (const auto c = call_of(k)) return call::to_string(*c);
  switch (k) {
    case EventKind::win:
      return "win";
    case EventKind::load:
      return "load";
    case EventKind::store:
      return "store";
    case EventKind::early:
      return "early";
    default:
      return "?";
  }
}

std::string_view to_string(Buffer b) {
  return b == Buffer::result ? "result" : "origin";
}

std::string_view op_name(const RaceEvent& e) {
  return e.kind == EventKind::compare_and_swap ? "cas" : rma::to_string(e.op);
}

json to_json(const RaceEvent& e) {
  json j = {{"k", std::string(to_string(e.kind))}};
  switch (e.kind) {
    case EventKind::win:
      j["w"] = e.w;
      j["du"] = e.du;
      j["dyn"] = e.dyn;
      return j;
    case EventKind::load:
    case EventKind::store:
      range_to_json(e, j);
      return j;
    case EventKind::early:
      range_to_json(e, j);
      j["m"] = std::string(1, letter(e.mode));
      j["buf"] = std::string(to_string(e.buf));
      j["call"] = std::string(call::to_string(e.call));
      j["call_at"] = e.call_at;
      return j;
    default:
      break;
  }
  j["at"] = e.at;
  if (e.w >= 0) j["w"] = e.w;  // job calls belong to no window
  if (remote_op(e.kind))
    remote_to_json(e, j);
  else
    call_to_json(e, j);
  return j;
}

RaceEvent from_json(const json& j) {
  if (!j.is_object()) bad(j, "not an object");
  RaceEvent e;
  const auto kind = j.contains("k") ? parse_kind(j["k"].get<std::string>()) : std::nullopt;
  if (!kind) bad(j, "unknown kind");
  e.kind = *kind;
  e.at = j.value("at", "");
  e.w = j.value("w", -1);
  e.t = j.value("t", -1);
  e.du = j.value("du", 1);
  e.dyn = j.value("dyn", false);
  e.lo = j.value("lo", std::uint64_t{0});
  e.hi = j.value("hi", std::uint64_t{0});
  e.d = j.value("d", std::uint64_t{0});
  e.n = j.value("n", std::uint64_t{0});
  e.cov = j.value("cov", false);
  e.grid = j.value("grid", true);
  if (j.contains("m")) e.mode = mode_of(j, j["m"].get<std::string>());
  if (e.kind == EventKind::load) e.mode = AccessMode::load;
  if (e.kind == EventKind::store) e.mode = AccessMode::store;
  e.v = j.value("v", std::uint64_t{0});
  e.cv = j.value("cv", std::uint64_t{0});
  e.old = j.value("old", std::uint64_t{0});
  e.ret = j.value("ret", false);
  e.a = j.value("a", 0u);
  e.x = j.value("x", false);
  e.tag = j.value("tag", 0);
  e.call_at = j.value("call_at", "");
  optional_from_json(j, e);
  return e;
}

json to_log(const std::vector<RaceEvent>& events) {
  json log = json::array();
  for (const RaceEvent& e : events) log.push_back(to_json(e));
  return log;
}

std::vector<RaceEvent> from_log(const json& log) {
  std::vector<RaceEvent> events;
  // Anything but an array is a rank that sent no log (the checker always read them so).
  if (!log.is_array()) return events;
  events.reserve(log.size());
  for (const json& j : log) events.push_back(from_json(j));
  return events;
}

}  // namespace harness::races
