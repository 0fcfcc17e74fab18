// case_watcher.cpp — the one case watcher (case_watcher.hpp): the poll loop, the control
// messages, the deadlines and the stop request, the same whichever way the ranks started.
// What differs between those ways is asked of the RankStarter.
#include "launcher/case_watcher.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <iostream>
#include <optional>

#include "launcher/rank_results.hpp"
#include "launcher/verdict.hpp"
#include "reports/trace.hpp"

namespace harness::launcher {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

std::atomic<int> g_case_counter{0};

// How long ranks that are still running get to finish after another rank ended the case
// early (a Lua error, fail() or skip()), before they are stopped.
constexpr auto kEarlyEndGrace = std::chrono::milliseconds(300);
// How long survivors of a crash may take to report their own errors.
constexpr auto kCrashGrace = std::chrono::milliseconds(1500);
// How long ranks get to answer a state request.
constexpr auto kStateWait = std::chrono::milliseconds(1500);
constexpr auto kStateWaitCrash = std::chrono::milliseconds(300);
// How long the ranks may take to start (every one has said hello) when the case's own
// time limit is shorter: a library's launcher can take seconds (mpirun across hosts, a
// loaded CI machine, a rank under valgrind), and that must not eat a short deadline.
constexpr double kStartLimitS = 60;

class CaseWatcher final : public CaseHost {
 public:
  CaseWatcher(const suite::CaseSpec& spec, const LaunchOptions& opt, RankStarter& starter)
      : spec_(spec), opt_(opt), starter_(starter), kv_(spec.ranks) {
    spec_.name_prefix = "rmabench." + std::to_string(::getpid()) + "." +
                        std::to_string(g_case_counter.fetch_add(1));
  }

  ~CaseWatcher() override {
    stop();
    sweep_segments();
  }

  CaseOutcome run();

  // --- CaseHost ---------------------------------------------------------------------------
  const suite::CaseSpec& spec() const override { return spec_; }
  std::vector<Rank>& ranks() override { return ranks_; }
  rma::bootstrap::KvServer& kv() override { return kv_; }
  void pump(Clock::duration d) override;
  void handle_message(Rank& r, const Message& m) override;
  void read_control(Rank& r) override;
  void rank_ended(Rank& r) override { starter_.on_exit(r); }
  void add_failure(int rank, std::string message) override {
    result_.failures.push_back({rank, "launcher", std::move(message)});
  }
  bool all_exited() const override;

 private:
  void watch();
  bool all_reported() const;
  Clock::time_point deadline() const;
  double start_limit_s() const { return std::max(spec_.timeout_s, kStartLimitS); }
  bool survivors_reported() const;
  bool crashed() const;
  bool ended_early() const;
  void on_kv(Rank& r);
  void collect_states(Clock::duration wait);
  void stop() { starter_.stop(!deadline_hit_ && !interrupted_); }
  void sweep_segments();
  json rank_state_json(const Rank& r) const;
  RankEnd rank_end(const Rank& r) const;
  void finish();
  void merge_results(reports::CaseResult& out);
  void attach_trace(reports::CaseResult& out) const;

  suite::CaseSpec spec_;
  const LaunchOptions& opt_;
  RankStarter& starter_;
  rma::bootstrap::KvServer kv_;
  std::vector<Rank> ranks_;
  Clock::time_point start_;
  // When the last rank said hello: the case's time limit counts from there.
  std::optional<Clock::time_point> up_at_;
  bool deadline_hit_ = false;
  bool interrupted_ = false;
  bool crash_seen_ = false;  // watch() saw a rank's abnormal end before any stop request
  reports::CaseResult result_;
  json figures_ = json::array();  // the origin's benchmark entries, as they came
  std::string named_impl_;        // the library and version an MPI rank's hello named
};

CaseOutcome CaseWatcher::run() {
  start_ = Clock::now();
  result_ = base_result(spec_);
  if (std::string why = starter_.skip_reason(spec_); !why.empty()) {
    result_.status = reports::Verdict::skip;
    result_.reason = why;
    CaseOutcome out;
    out.result = result_;
    return out;
  }
  starter_.start(*this);
  watch();
  stop();
  sweep_segments();
  finish();
  starter_.add_report(result_);
  result_.duration_s = std::chrono::duration<double>(Clock::now() - start_).count();
  CaseOutcome out;
  out.result = result_;
  out.benchmarks = std::move(figures_);
  return out;
}

// --- watching ---------------------------------------------------------------------------

// The case's time limit counts from when every rank is up (has said hello), not from the
// launch; until then the ranks have the start limit.
Clock::time_point CaseWatcher::deadline() const {
  const auto after = [](Clock::time_point t, double s) {
    return t + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  if (up_at_) return after(*up_at_, spec_.timeout_s);
  return after(start_, start_limit_s());
}

void CaseWatcher::watch() {
  std::optional<Clock::time_point> early_end, crash_end;
  while (!all_exited()) {
    const auto deadline = this->deadline();
    if (stop_requested()) {
      // A crash this loop had already seen is the case's verdict, not the stop that came
      // while the survivors were still reporting what they saw. Only one seen on an earlier
      // turn: a signal sent to the whole job (a scheduler's SIGTERM) kills ranks too, and
      // their deaths, seen on the turn the stop came, are the stop's.
      interrupted_ = !crash_seen_;
      collect_states(kStateWaitCrash);
      return;
    }
    // After a crash the survivors get a short grace to report what they saw (an error
    // naming the dead peer is the library's promise); then whoever is still blocked is
    // asked for its state and stopped.
    if (crashed()) {
      crash_seen_ = true;
      if (survivors_reported()) return;
      if (!crash_end) crash_end = std::min(Clock::now() + kCrashGrace, deadline);
      if (Clock::now() >= *crash_end) {
        collect_states(kStateWaitCrash);
        return;
      }
    }
    // A rank that ended early (error, fail, skip) waits to be stopped; its peers are
    // usually stuck in the next barrier. Once every rank has reported, or the grace is
    // over, the case is done.
    if (ended_early()) {
      if (all_reported()) return;
      if (!early_end) early_end = Clock::now() + kEarlyEndGrace;
    }
    const auto now = Clock::now();
    if (early_end && now >= *early_end) return;
    if (now >= deadline) {
      deadline_hit_ = true;
      collect_states(kStateWait);
      return;
    }
    auto until = deadline;
    if (early_end && *early_end < until) until = *early_end;
    if (crash_end && *crash_end < until) until = *crash_end;
    pump(std::min<Clock::duration>(until - now, std::chrono::milliseconds(200)));
  }
}

bool CaseWatcher::all_exited() const {
  for (const auto& r : ranks_)
    if (!r.exited) return false;
  return true;
}

bool CaseWatcher::all_reported() const {
  for (const auto& r : ranks_)
    if (!r.result) return false;
  return true;
}

bool CaseWatcher::survivors_reported() const {
  for (const auto& r : ranks_)
    if (!r.exited && !r.result) return false;
  return true;
}

bool CaseWatcher::crashed() const {
  for (const auto& r : ranks_)
    if (r.exited && !(r.bye && r.exit_code == 0 && r.exit_signal == 0)) return true;
  return false;
}

bool CaseWatcher::ended_early() const {
  for (const auto& r : ranks_)
    if (r.result && r.result_msg.value("early", false)) return true;
  return false;
}

// Waits up to `d` for any event and handles everything that is ready: a rank's control
// channel, its bootstrap socket, its exit, and whatever its starter watches besides.
void CaseWatcher::pump(Clock::duration d) {
  using Pass = PollSet::Pass;
  PollSet polls;
  for (auto& r : ranks_) {
    if (r.ctrl_open && r.ctrl)
      polls.add(r.ctrl->fd(), Pass::messages, [this, &r] { read_control(r); });
    if (r.kv_open) polls.add(r.kv.fd, Pass::bootstrap, [this, &r] { on_kv(r); });
    if (!r.exited && r.pidfd.fd >= 0)
      polls.add(r.pidfd.fd, Pass::exits, [this, &r] { starter_.on_exit(r); });
  }
  starter_.add_polls(polls);
  polls.wait(d);
}

void CaseWatcher::read_control(Rank& r) {
  if (!r.ctrl) return;
  if (!r.ctrl->read_available()) r.ctrl_open = false;
  while (auto m = r.ctrl->next()) handle_message(r, *m);
  // A rank on another node has no pidfd here: its channel's end is its exit.
  if (r.remote && !r.ctrl_open && !r.exited) starter_.on_exit(r);
}

void CaseWatcher::handle_message(Rank& r, const Message& msg) {
  if (const auto* hello = std::get_if<Hello>(&msg)) {
    r.hello = true;
    // Not once the start limit passed: a case whose ranks came up while they were asked for
    // their state or stopped never had its time limit.
    if (!up_at_ && !deadline_hit_ &&
        std::all_of(ranks_.begin(), ranks_.end(), [](const Rank& x) { return x.hello; }))
      up_at_ = Clock::now();
    // An MPI rank names its library with the version (mpi_rank.hpp).
    if (!hello->impl.empty()) named_impl_ = hello->impl;
    r.ctrl->send(CaseMessage{spec_});
  } else if (const auto* logged = std::get_if<Log>(&msg)) {
    std::string line = "rank " + std::to_string(r.rank) + ": " + logged->text;
    if (opt_.verbose) std::cerr << line << "\n";
    result_.log.push_back(std::move(line));
  } else if (const auto* figs = std::get_if<Figures>(&msg)) {
    // Kept whatever becomes of the case: an interrupted sweep reports the rows it finished.
    for (const auto& b : figs->benchmarks) figures_.push_back(b);
    if (opt_.on_figures && !figs->benchmarks.empty()) opt_.on_figures(figs->benchmarks);
  } else if (const auto* res = std::get_if<Result>(&msg)) {
    r.result = true;
    r.result_msg = res->body;
  } else if (const auto* state = std::get_if<State>(&msg)) {
    r.state_msg = state->body;
  } else if (std::holds_alternative<Bye>(msg)) {
    r.bye = true;
  } else if (const auto* sig = std::get_if<Signal>(&msg)) {
    // An MPI rank's own word on the signal that is ending it (its launcher may report a
    // different exit status, or none).
    r.exit_signal = sig->signal;
  } else if (const auto* batch = std::get_if<BatchDone>(&msg)) {
    // The origin of a truly-passive benchmark ended a batch: the computing targets stop.
    for (auto& other : ranks_)
      if (other.rank != r.rank && other.ctrl_open) other.ctrl->send(StopCompute{batch->batch});
  } else {
    result_.failures.push_back(
        {r.rank, "launcher", "unreadable control message: " + encode(msg).dump()});
  }
}

void CaseWatcher::on_kv(Rank& r) {
  rma::Status s = kv_.on_readable(r.rank);
  if (!s) r.kv_open = false;  // closed at exit, or garbage: either way we stop listening
}

// Asks every live rank what it is doing and waits up to `wait` for the answers.
void CaseWatcher::collect_states(Clock::duration wait) {
  for (auto& r : ranks_)
    if (r.live() && r.ctrl_open) r.ctrl->send(StateQuery{});
  const auto until = Clock::now() + wait;
  while (Clock::now() < until) {
    bool all = true;
    for (const auto& r : ranks_)
      if (r.live() && r.ctrl_open && r.state_msg.is_null()) all = false;
    if (all) break;
    pump(std::min<Clock::duration>(until - Clock::now(), std::chrono::milliseconds(50)));
  }
}

// --- ending -----------------------------------------------------------------------------

// What the ranks left behind: their starter's leftovers, then every segment named after
// the case's prefix.
void CaseWatcher::sweep_segments() {
  starter_.sweep();
  sweep_case_segments(spec_.name_prefix);
}

json CaseWatcher::rank_state_json(const Rank& r) const {
  json s;
  if (r.state_msg.is_object()) {
    s = r.state_msg;
    s.erase("t");
    s.erase("trace");  // the case's trace has it (attach_trace)
  } else if (r.result) {
    s = {{"state", "reported " + r.result_msg.value("status", std::string("a result"))}};
  } else if (r.killed || r.live()) {
    s = {{"state", "no reply"}};
  } else {
    s = {{"state", r.bye ? "finished" : "exited"}};
  }
  s["rank"] = r.rank;
  if (r.exited && !r.killed) {
    if (r.exit_signal)
      s["signal"] = signal_name(r.exit_signal);
    else
      s["exit_code"] = r.exit_code;
  }
  return s;
}

// A rank as the verdict reads it: a crash is an end by itself before saying bye, or by a
// signal; a rank that never connected is left to the deadline's verdict once it passed.
RankEnd CaseWatcher::rank_end(const Rank& r) const {
  RankEnd e;
  e.rank = r.rank;
  const bool clean = r.killed || (r.bye && r.exit_code == 0 && r.exit_signal == 0);
  if (!clean && r.exited && !(r.never_connected && deadline_hit_)) {
    e.crash = starter_.how_ended(r);
    e.crash_detail = r.result ? " after its result" : "";
  }
  e.in_case = !(r.result && r.bye);  // else it finished before the deadline
  e.state = r.state_msg;
  return e;
}

void CaseWatcher::finish() {
  for (const auto& r : ranks_) result_.binding.push_back(r.binding);
  for (const auto& r : ranks_)
    if (!r.host.empty()) {
      for (const auto& each : ranks_) result_.hosts.push_back(each.host);
      break;
    }
  if (!interrupted_) starter_.learn_exits();
  CaseEnd end;
  end.interrupted = interrupted_;
  end.deadline_hit = deadline_hit_;
  end.started = up_at_.has_value();
  end.start_limit_s = start_limit_s();
  end.rank_states = json::array();
  for (const auto& r : ranks_) end.rank_states.push_back(rank_state_json(r));
  std::vector<const Rank*> order;
  for (const auto& r : ranks_) order.push_back(&r);
  starter_.crash_order(order);
  for (const Rank* r : order) end.ranks.push_back(rank_end(*r));
  end.merge = [this](reports::CaseResult& out) { merge_results(out); };
  judge(spec_, end, result_);
}

void CaseWatcher::merge_results(reports::CaseResult& out) {
  std::vector<json> results;
  for (const auto& r : ranks_) results.push_back(r.result ? r.result_msg : json());
  launcher::merge_rank_results(results, out, named_impl_);
  if (spec_.trace) attach_trace(out);
}

// --trace: each rank's ring from its result, or from its state when it did not finish.
void CaseWatcher::attach_trace(reports::CaseResult& out) const {
  std::vector<json> per_rank;
  for (const auto& r : ranks_) {
    if (r.result && r.result_msg.contains("trace"))
      per_rank.push_back(r.result_msg["trace"]);
    else if (r.state_msg.is_object() && r.state_msg.contains("trace"))
      per_rank.push_back(r.state_msg["trace"]);
    else
      per_rank.push_back(json());
  }
  out.trace = reports::to_json(reports::merge_rank_traces(per_rank));
}

}  // namespace

CaseOutcome watch_case(const suite::CaseSpec& spec, const LaunchOptions& options,
                       RankStarter& starter) {
  CaseWatcher watcher(spec, options, starter);
  return watcher.run();
}

}  // namespace harness::launcher
