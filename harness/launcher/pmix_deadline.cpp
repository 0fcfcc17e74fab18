// pmix_deadline.cpp — the deadline thread of a rank under an external launcher, the state
// exchange past the deadline, and what rank 0 hands the verdict rule (verdict.hpp).
#include "launcher/pmix_deadline.hpp"

#include <cstdlib>
#include <iostream>
#include <memory>

#include "launcher/rank_results.hpp"
#include "launcher/verdict.hpp"

namespace harness::launcher {

using nlohmann::json;

namespace {

std::string state_key(const std::string& prefix, int rank) {
  return prefix + "deadline_state." + std::to_string(rank);
}

}  // namespace

std::vector<std::optional<std::string>> get_bounded(rma::bootstrap::Bootstrap& boot,
                                                    const std::vector<std::string>& keys,
                                                    double seconds) {
  struct Shared {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::optional<std::string>> got;
    std::size_t done = 0;
  };
  auto sh = std::make_shared<Shared>();
  sh->got.resize(keys.size());
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(seconds));
  for (std::size_t i = 0; i < keys.size(); ++i) {
    std::thread([sh, &boot, key = keys[i], i, until] {
      // PMIx answers "not found" at once for a key published after the last fence by a rank
      // whose data this process already holds; asking again reaches the server, which has it
      // once that rank has committed it.
      auto v = boot.get(key);
      while (!v && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        v = boot.get(key);
      }
      std::lock_guard g(sh->mu);
      if (v) sh->got[i] = v.value();
      ++sh->done;
      sh->cv.notify_all();
    }).detach();
  }
  std::unique_lock g(sh->mu);
  sh->cv.wait_for(g, std::chrono::duration<double>(seconds),
                  [&] { return sh->done == keys.size(); });
  return sh->got;
}

PmixDeadline::PmixDeadline(rma::bootstrap::Bootstrap& pmix, std::function<json()> snapshot,
                           std::function<int(const reports::CaseResult&)> verdict)
    : pmix_(pmix), snapshot_(std::move(snapshot)), verdict_(std::move(verdict)) {
  thread_ = std::thread([this] { run(); });
}

PmixDeadline::~PmixDeadline() {
  {
    std::lock_guard g(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void PmixDeadline::arm(const suite::CaseSpec& spec, const std::string& prefix) {
  std::lock_guard g(mu_);
  spec_ = spec;
  prefix_ = prefix;
  finished_.clear();
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(spec.timeout_s));
  armed_ = true;
  cv_.notify_all();
}

void PmixDeadline::finished(const std::string& status) {
  std::lock_guard g(mu_);
  finished_ = status;
}

void PmixDeadline::disarm() {
  std::lock_guard g(mu_);
  armed_ = false;
}

void PmixDeadline::run() {
  std::unique_lock g(mu_);
  while (!stop_) {
    if (!armed_) {
      cv_.wait(g);
      continue;
    }
    // The lock stays held past the deadline: disarm() waits, and expire() never returns.
    if (cv_.wait_until(g, deadline_) == std::cv_status::timeout && armed_ && !stop_) expire();
  }
}

void PmixDeadline::expire() {
  const int me = pmix_.rank();
  const int n = spec_.ranks;
  json mine;
  if (me < n) {
    mine = finished_.empty() ? snapshot_() : json{{"state", "reported " + finished_}};
    mine.erase("t");
    mine["rank"] = me;
    std::cerr << "rmabench: rank " << me << ": case deadline passed; state: " << mine.dump()
              << "\n";
    (void)pmix_.put(state_key(prefix_, me), mine.dump());
  }
  if (me == 0) {
    std::vector<std::string> keys;
    for (int r = 1; r < n; ++r) keys.push_back(state_key(prefix_, r));
    const auto got = get_bounded(pmix_, keys, kStateWait);
    std::vector<json> states{mine};
    for (const auto& s : got) states.push_back(s ? json::parse(*s, nullptr, false) : json());
    // The results of the ranks that have one (put before the fence they wait in).
    std::vector<json> results(states.size());
    keys.clear();
    std::vector<std::size_t> whose;
    for (std::size_t r = 0; r < states.size(); ++r)
      if (states[r].is_object() && states[r].contains("state")) {
        keys.push_back(prefix_ + "result." + std::to_string(r));
        whose.push_back(r);
      }
    const auto res_got = get_bounded(pmix_, keys, kStateWait);
    for (std::size_t i = 0; i < whose.size(); ++i)
      if (res_got[i]) results[whose[i]] = json::parse(*res_got[i], nullptr, false);
    const int code = verdict_(judge_states(states, results));
    std::cout.flush();
    // The report is written: the others may leave now. The first rank to leave without
    // PMIx_Finalize makes Slurm kill the rest of the step, so srun's own exit status may
    // say "killed" rather than this code; the report holds the verdict either way.
    (void)pmix_.put(prefix_ + "verdict.0", std::to_string(code));
    std::_Exit(code);
  }
  // Leaving before rank 0 has written the report would get it killed (see above).
  const auto got = get_bounded(pmix_, {prefix_ + "verdict.0"}, kStateWait + kVerdictWait);
  std::_Exit(got[0] ? std::atoi(got[0]->c_str()) : 124);
}

// What rank 0 saw at the deadline, for the verdict rule: a rank with no state has ended or
// cannot be reached (a crash); one whose state is only its reported status has finished.
reports::CaseResult PmixDeadline::judge_states(const std::vector<json>& states,
                                               const std::vector<json>& results) const {
  reports::CaseResult res = base_result(spec_);
  // From the case's start (the deadline less the timeout) until now.
  res.duration_s =
      spec_.timeout_s +
      std::chrono::duration<double>(std::chrono::steady_clock::now() - deadline_).count();
  CaseEnd end;
  end.deadline_hit = true;
  end.merge_unfinished = false;
  end.rank_states = json::array();
  for (std::size_t r = 0; r < states.size(); ++r) {
    RankEnd e;
    e.rank = static_cast<int>(r);
    json s = states[r];
    if (!s.is_object()) {
      s = {{"state", "no reply"}};
      e.crash = "gave no state within " + std::to_string(static_cast<int>(kStateWait)) +
                " s of the deadline";
      e.crash_detail =
          ": it has ended (exit or signal; the launcher's output says which) or cannot be "
          "reached";
    } else if (!s.contains("state")) {  // still in the case
      e.in_case = true;
      e.state = s;
    }
    s["rank"] = e.rank;
    end.rank_states.push_back(s);
    end.ranks.push_back(std::move(e));
  }
  // A rank that ended early (skip, fail, error) left the others waiting for it.
  for (std::size_t r = 0; r < results.size() && end.early < 0; ++r)
    if (results[r].is_object() && results[r].value("early", false)) {
      end.early = static_cast<int>(r);
      end.early_status = results[r].value("status", std::string("error"));
    }
  end.merge = [&results](reports::CaseResult& out) { merge_rank_results(results, out); };
  judge(spec_, end, res);
  return res;
}

}  // namespace harness::launcher
