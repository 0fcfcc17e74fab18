#include "reports/testing/sample_report.hpp"

namespace reports::sample {

using nlohmann::json;

CaseResult passed_case(const std::string& id) {
  CaseResult c;
  c.id = id;
  c.script = "lua_scripts/lock_put_unlock.lua";
  c.name = "lock-put-unlock";
  c.status = Status::pass;
  c.ranks = 2;
  c.backend = "shm";
  c.path = "am";
  c.progress = "async";
  c.duration_s = 0.012;
  c.options = {{"size", "8"}};
  c.tags = {"lock", "passive"};
  c.messages.measured = true;
  c.messages.total = 2;
  c.messages.by_type = {{"lock_put", 1}, {"unlock_ack", 1}};
  c.messages.expected = {{"total", 2}};
  c.binding = {"core 0", "core 1"};
  return c;
}

namespace {

json blocked_rank_states() {
  return json::array({
      {{"rank", 0},
       {"call", "recv"},
       {"blocked", true},
       {"since_s", 3.2},
       {"window", -1},
       {"target", 1},
       {"waiting_for", "message from 1 tag 7"},
       {"where", "lua_scripts/x.lua:14"},
       {"windows", json::array({{{"id", 0},
                                 {"flavor", "allocate"},
                                 {"path", "am"},
                                 {"access_epoch", "pscw"},
                                 {"exposure_epoch", "none"},
                                 {"targets", json::array({{{"target", 1},
                                                           {"lock", "none"},
                                                           {"queued_ops", 1},
                                                           {"in_flight", 0},
                                                           {"awaiting_acks", 0}}})},
                                 {"lock_holders", ""},
                                 {"lock_waiters", ""}}})},
       {"counters", {{"packets_sent", 3}, {"packets_received", 0}}}},
      {{"rank", 1}, {"state", "no reply"}},
  });
}

}  // namespace

Report sample_report() {
  Report r;
  r.context.rmabench_version = "0.1.0";
  r.context.git_revision = "6b327bc";
  r.context.host = "node-1";
  r.context.command = "rmabench run suites/conformance.lua --format json,junit,md";
  r.context.started_at = "2024-05-01T12:00:00Z";
  r.context.topology = {{"packages", 1}, {"cores", 8}, {"numa", json::array({0})}};
  r.context.options = {{"backend", "shm"}, {"timeout", 10}};

  r.cases.push_back(passed_case("conformance/lock_put_unlock[shm,am,np=2]"));

  CaseResult fail = passed_case("conformance/fence_put[shm,am,np=2]");
  fail.status = Status::fail;
  fail.messages.total = 3;
  fail.failures = {{1, "lua_scripts/fence_put.lua:21", hostile_text},
                   {-1, "messages", "expected total 2, got 3"}};
  fail.log = {"rank 0: started", std::string("rank 1: ") + hostile_text};
  r.cases.push_back(fail);

  CaseResult must_deadlock = passed_case("conformance/lock_self_deadlock[shm,am,np=2]");
  must_deadlock.expected = "deadlock";
  must_deadlock.status = Status::deadlock;
  must_deadlock.messages.measured = false;
  must_deadlock.rank_states = blocked_rank_states();
  r.cases.push_back(must_deadlock);

  CaseResult timeout = passed_case("progress/pscw_no_progress[shm,am,np=2]");
  timeout.status = Status::timeout;
  timeout.reason = "no progress within 10 s";
  timeout.rank_states = blocked_rank_states();
  timeout.metrics = {{"latency_us", 1.5}};
  r.cases.push_back(timeout);

  CaseResult crash = passed_case("progress/rput_crash[fabric,direct,np=2]");
  crash.status = Status::crash;
  crash.backend = "fabric";
  crash.provider = "tcp";
  crash.path = "direct";
  crash.reason = "rank 1 killed by signal 11 (SIGSEGV)";
  r.cases.push_back(crash);

  CaseResult error = passed_case("conformance/bad_script[shm,am,np=2]");
  error.status = Status::error;
  error.failures = {{0, "lua_scripts/bad_script.lua:3", "attempt to call a nil value"}};
  r.cases.push_back(error);

  CaseResult skip = passed_case("fabric/atomics[fabric,direct,np=2]");
  skip.status = Status::skip;
  skip.messages.measured = false;
  skip.reason = "provider tcp has no native atomics";
  r.cases.push_back(skip);

  CaseResult single = passed_case("lock_put_unlock[shm,am,np=2]");  // no suite prefix
  r.cases.push_back(single);

  r.benchmarks = json::array({{{"name", "put_latency/lock/8"},
                               {"iterations", 1000},
                               {"real_time", 1.25},
                               {"cpu_time", 1.2},
                               {"time_unit", "us"},
                               {"run_type", "iteration"}}});
  r.summary.duration_s = 12.5;
  r.finish();
  return r;
}

}  // namespace reports::sample
