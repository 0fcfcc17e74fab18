// plain_figure.cpp — which replayed figures have a plain loop, and the fields of its entries.
#include "worker/plain_figure.hpp"

namespace harness::worker {

using nlohmann::json;

PlainChoice plain_choice(const ReplayedFigure& f) {
  PlainChoice c;
  const bool pingpong = f.pattern == "bench/pingpong";
  if (!pingpong && f.pattern != "bench/latency") {
    c.why_not = "no plain-C loop of pattern " + f.pattern + " (only bench/latency, bench/pingpong)";
    return c;
  }
  // A ping-pong has no passive target: both ranks run every iteration.
  if (!pingpong && f.target != "wait") {
    c.why_not = "no plain-C loop with the target in mode " + f.target +
                " (only wait: the target in a barrier)";
    return c;
  }
  // The loop takes the op, sync, size and flavor; any other option (a put of long_int pairs)
  // would be timed as something else.
  if (!f.variant.empty()) {
    c.why_not = "no plain-C loop with " + f.variant + " (it takes op, sync, size, flavor)";
    return c;
  }
  if (f.ranks != 2) {
    c.why_not = "no plain-C loop on " + std::to_string(f.ranks) + " ranks";
    return c;
  }
  if (f.size == 0) {
    c.why_not = "no plain-C loop without a size";
    return c;
  }
  c.pattern.size = f.size;
  if (pingpong) {
    c.pattern.pattern = "pingpong";
    return c;
  }
  c.pattern.pattern = "latency";
  c.pattern.op = f.op;
  c.pattern.sync = f.sync;
  c.pattern.flavor = f.flavor.empty() ? "allocate" : f.flavor;
  return c;
}

std::string plain_figure_name(const std::string& name) {
  return name + "/plain_c";
}

void mark_plain_entry(json& e, const std::string& replayed_run) {
  const std::string impl = e.value("impl", "");
  e["calibration"] = "plain_c";
  e["replayed"] = replayed_run;
  // Its own implementation name, so plots and lists keep it apart from the replay; the table
  // puts it beside the replay's figure by `replayed_impl`.
  e["replayed_impl"] = impl;
  e["impl"] = impl + " plain C";
  e["messages_reason"] = "not observable in a plain C program";
  e.erase("messages_expected");
}

json no_plain_entry(const json& replayed, const std::string& why) {
  const std::string run = replayed.value("run_name", replayed.value("name", ""));
  json e = json::object();
  for (const char* k : {"case", "pattern", "op", "sync", "size", "metric", "target", "backend",
                        "path", "provider", "flavor", "ranks", "impl", "variant"})
    if (replayed.contains(k)) e[k] = replayed[k];
  // "<replayed up to /min_time:>/plain_c/...": the name the figure would have had.
  const auto at = run.find("/min_time:");
  const std::string name = at == std::string::npos
                               ? plain_figure_name(run)
                               : plain_figure_name(run.substr(0, at)) + run.substr(at);
  e["name"] = name;
  e["run_name"] = name;
  e["run_type"] = "iteration";
  e["error_occurred"] = true;
  e["error_message"] = why;
  mark_plain_entry(e, run);
  return e;
}

}  // namespace harness::worker
