#include "reports/rank_state_text.hpp"

#include <algorithm>
#include <initializer_list>
#include <string_view>

#include "reports/text_format.hpp"

namespace reports {

namespace {

using nlohmann::json;
using Keys = std::initializer_list<std::string_view>;

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : std::string(sep)) + p;
  return out;
}

// Adds "key=value" for every scalar field the caller did not render itself, so a field the
// harness adds later still shows up without a change here.
void add_unrendered(std::vector<std::string>& parts, const json& obj, Keys rendered) {
  for (const auto& [k, v] : obj.items()) {
    if (v.is_structured() || std::find(rendered.begin(), rendered.end(), k) != rendered.end()) {
      continue;
    }
    parts.push_back(k + "=" + json_text(v));
  }
}

std::string text_of(const json& obj, std::string_view key) {
  auto it = obj.find(key);
  return it == obj.end() ? std::string() : json_text(*it);
}

// Window and target indices use -1 for "none".
bool has_index(const json& obj, std::string_view key) {
  auto it = obj.find(key);
  return it != obj.end() && !it->is_null() &&
         !(it->is_number_integer() && it->get<long long>() < 0);
}

std::string target_text(const json& t) {
  if (!t.is_object()) return "target " + json_text(t);
  std::vector<std::string> parts;
  auto add = [&](std::string_view key, std::string_view label) {
    if (t.contains(key)) parts.push_back(std::string(label) + " " + text_of(t, key));
  };
  add("lock", "lock");
  add("queued_ops", "queued");
  add("in_flight", "in flight");
  add("awaiting_acks", "awaiting acks");
  add_unrendered(parts, t, {"target", "lock", "queued_ops", "in_flight", "awaiting_acks"});
  const std::string head = "target " + (t.contains("target") ? text_of(t, "target") : "?");
  return parts.empty() ? head : head + ": " + join(parts, ", ");
}

std::string window_text(const json& w) {
  if (!w.is_object()) return "window " + json_text(w);
  std::string head = "window " + (w.contains("id") ? text_of(w, "id") : "?");
  std::vector<std::string> kind;
  for (auto key : {"flavor", "path"}) {
    if (w.contains(key)) kind.push_back(text_of(w, key));
  }
  if (!kind.empty()) head += " (" + join(kind, ", ") + ")";

  std::vector<std::string> parts;
  if (w.contains("access_epoch")) parts.push_back("access " + text_of(w, "access_epoch"));
  if (w.contains("exposure_epoch")) parts.push_back("exposure " + text_of(w, "exposure_epoch"));
  if (auto it = w.find("targets"); it != w.end() && it->is_array()) {
    for (const auto& t : *it) parts.push_back(target_text(t));
  }
  // An empty holder or waiter list is the common case and says nothing.
  if (auto h = text_of(w, "lock_holders"); !h.empty()) parts.push_back("lock holders: " + h);
  if (auto q = text_of(w, "lock_waiters"); !q.empty()) parts.push_back("lock waiters: " + q);
  add_unrendered(
      parts, w,
      {"id", "flavor", "path", "access_epoch", "exposure_epoch", "lock_holders", "lock_waiters"});
  return parts.empty() ? head : head + ": " + join(parts, "; ");
}

std::string counters_text(const json& c) {
  if (!c.is_object()) return "counters: " + json_text(c);
  std::vector<std::string> parts;
  for (const auto& [k, v] : c.items()) {
    if (!(v.is_number() && v.get<double>() == 0)) parts.push_back(k + "=" + json_text(v));
  }
  return "counters: " + (parts.empty() ? std::string("all zero") : join(parts, ", "));
}

std::string call_text(const json& s) {
  // A rank outside every library call is running the script's own code.
  if (text_of(s, "call").empty()) return "running script code (in no library call)";
  const auto blocked = s.find("blocked");
  const bool known = blocked != s.end() && blocked->is_boolean();
  std::string out = (known && blocked->get<bool>() ? "blocked in " : "in ") + text_of(s, "call");
  if (auto since = s.find("since_s"); since != s.end()) {
    out +=
        " since " + (since->is_number() ? format_seconds(since->get<double>()) : json_text(*since));
  }
  if (known && !blocked->get<bool>()) out += " (not blocked)";
  return out;
}

}  // namespace

RankStateText describe_rank_state(const json& state) {
  RankStateText t;
  if (!state.is_object()) {
    t.headline = "rank ?: " + json_text(state);
    return t;
  }
  std::vector<std::string> parts;
  if (state.contains("state")) parts.push_back(text_of(state, "state"));
  if (state.contains("call")) {
    parts.push_back(call_text(state));
  } else if (state.contains("since_s")) {
    parts.push_back("since " + text_of(state, "since_s"));
  }
  if (has_index(state, "window")) parts.push_back("window " + text_of(state, "window"));
  if (has_index(state, "target")) parts.push_back("target " + text_of(state, "target"));
  if (auto w = text_of(state, "waiting_for"); !w.empty()) parts.push_back("waiting for " + w);
  if (auto w = text_of(state, "where"); !w.empty()) parts.push_back("at " + w);
  add_unrendered(
      parts, state,
      {"rank", "state", "call", "blocked", "since_s", "window", "target", "waiting_for", "where"});

  const std::string rank = state.contains("rank") ? text_of(state, "rank") : "?";
  t.headline = "rank " + rank + ": " + (parts.empty() ? "(no state reported)" : join(parts, ", "));
  if (auto it = state.find("windows"); it != state.end() && it->is_array()) {
    for (const auto& w : *it) t.windows.push_back(window_text(w));
  }
  if (auto it = state.find("counters"); it != state.end()) t.counters = counters_text(*it);
  return t;
}

}  // namespace reports
