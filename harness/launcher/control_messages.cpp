// The control channel's codec (control_messages.hpp): each message's JSON form, the "t" field
// naming its type.
#include "launcher/control_messages.hpp"

#include <cstring>
#include <sstream>

namespace harness::launcher {
namespace {

using nlohmann::json;

json tagged(const char* type, json body = json::object()) {
  body["t"] = type;
  return body;
}

json to_json(const Hello& m) {
  json j = {{"rank", m.rank}, {"pid", m.pid}, {"token", m.token}};
  put_host(j, m.host);
  if (!m.impl.empty()) j["impl"] = m.impl;
  return tagged("hello", std::move(j));
}
json to_json(const CaseMessage& m) {
  return tagged("case", suite::to_json(m.spec));
}
json to_json(const Log& m) {
  return tagged("log", {{"text", m.text}});
}
json to_json(const Figures& m) {
  return tagged("figures", {{"benchmarks", m.benchmarks}});
}
json to_json(const BatchDone& m) {
  return tagged("batch_done", {{"batch", m.batch}});
}
json to_json(const StopCompute& m) {
  return tagged("stop_compute", {{"batch", m.batch}});
}
json to_json(const Result& m) {
  return tagged("result", m.body);
}
json to_json(const State& m) {
  return tagged("state", m.body);
}
json to_json(const Signal& m) {
  return tagged("signal", {{"signal", m.signal}});
}
json to_json(const Bye&) {
  return tagged("bye");
}
json to_json(const StateQuery&) {
  return tagged("state?");
}
json to_json(const StartRank& m) {
  return tagged("start_rank", {{"rank", m.rank}, {"size", m.size}, {"token", m.token}});
}
json to_json(const StopRank& m) {
  return tagged("stop_rank", {{"rank", m.rank}});
}
json to_json(const RankExited& m) {
  json j = {{"rank", m.rank}, {"exit_code", m.exit_code}, {"signal", m.signal}};
  if (!m.error.empty()) j["error"] = m.error;
  return tagged("rank_exited", std::move(j));
}
json to_json(const Sweep& m) {
  return tagged("sweep", {{"prefix", m.prefix}});
}
json to_json(const Quit&) {
  return tagged("quit");
}
json to_json(const Garbage& m) {
  return tagged("garbage", {{"line", m.line}});
}
json to_json(const Unknown& m) {
  return m.raw;
}

// The body without its type: what Result and State carry.
json body_of(const json& j) {
  json b = j;
  b.erase("t");
  return b;
}

Message from_json(const std::string& t, const json& j) {
  if (t == "hello")
    return Hello{j.value("rank", -1), j.value("pid", -1L), j.value("token", ""),
                 j.value("impl", ""), host_of(j)};
  if (t == "case") return CaseMessage{suite::case_from_json(j)};
  if (t == "log") return Log{j.value("text", "")};
  if (t == "figures") {
    const auto it = j.find("benchmarks");
    return Figures{it != j.end() && it->is_array() ? *it : json::array()};
  }
  if (t == "batch_done") return BatchDone{j.value("batch", std::uint64_t{0})};
  if (t == "stop_compute") return StopCompute{j.value("batch", std::uint64_t{0})};
  if (t == "result") return Result{body_of(j)};
  if (t == "state") return State{body_of(j)};
  if (t == "signal") return Signal{j.value("signal", 0)};
  if (t == "bye") return Bye{};
  if (t == "state?") return StateQuery{};
  if (t == "start_rank")
    return StartRank{j.value("rank", -1), j.value("size", 0), j.value("token", "")};
  if (t == "stop_rank") return StopRank{j.value("rank", -1)};
  if (t == "rank_exited")
    return RankExited{j.value("rank", -1), j.value("exit_code", 0), j.value("signal", 0),
                      j.value("error", "")};
  if (t == "sweep") return Sweep{j.value("prefix", "")};
  if (t == "quit") return Quit{};
  if (t == "garbage") return Garbage{j.value("line", "")};
  return Unknown{j};
}

}  // namespace

json encode(const Message& m) {
  return std::visit([](const auto& x) { return to_json(x); }, m);
}

Message decode(const json& j) {
  if (!j.is_object()) return Unknown{j};
  const auto t = j.find("t");
  if (t == j.end() || !t->is_string()) return Unknown{j};
  try {
    return from_json(t->get<std::string>(), j);
  } catch (const std::exception&) {  // a field of the wrong type, a case spec unreadable
    return Unknown{j};
  }
}

Message decode_line(const std::string& line) {
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Garbage{line};
  return decode(j);
}

Result error_result(int rank, const std::string& where, const std::string& message) {
  return Result{{{"rank", rank},
                 {"status", "error"},
                 {"early", true},
                 {"failures", {{{"where", where}, {"message", message}}}}}};
}

std::string bootstrap_greeting(const std::string& token, int rank) {
  return "kv " + token + " " + std::to_string(rank);
}

std::optional<BootstrapGreeting> read_bootstrap_greeting(const std::string& line) {
  if (line.rfind("kv ", 0) != 0) return std::nullopt;
  std::istringstream words(line.substr(3));
  BootstrapGreeting g;
  words >> g.token >> g.rank;
  return g;
}

std::size_t signal_line(int sig, char (&out)[64]) {
  static constexpr char head[] = "{\"t\":\"signal\",\"signal\":";
  std::size_t n = sizeof head - 1;
  std::memcpy(out, head, n);
  if (sig >= 10) out[n++] = static_cast<char>('0' + sig / 10 % 10);
  out[n++] = static_cast<char>('0' + sig % 10);
  out[n++] = '}';
  out[n++] = '\n';
  return n;
}

}  // namespace harness::launcher
