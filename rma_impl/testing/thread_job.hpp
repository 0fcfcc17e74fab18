// thread_job.hpp — for unit tests and micro benchmarks: a job of N ranks as N threads of one
// process, each with its own Runtime (or only its shm transport) over the real shared
// memory, bootstrapped through an in-process key-value store. Lets tests (and
// ThreadSanitizer) run the protocol and the progress agent without the launcher.
//
//   rma::testing::run_job(2, {}, [](rma::Runtime& rt) { ... });   // rethrows nothing;
//   failures are reported through GoogleTest assertions inside the function.
//   auto t = rma::testing::shm_transports(2, "prefix");  // t[r]: rank r's, or an error
#pragma once

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "rma/bootstrap.hpp"
#include "rma/runtime.hpp"
#include "shm/shm_transport.hpp"

namespace rma::testing {

// A rank that fails to start abandons the store: the others' get() and fence() then fail
// instead of waiting for it forever.
class LocalStore {
 public:
  explicit LocalStore(int n) : n_(n) {}
  void put(const std::string& k, const std::string& v) {
    std::lock_guard g(mu_);
    kv_[k] = v;
    cv_.notify_all();
  }
  bool get(const std::string& k, std::string& v) {
    std::unique_lock g(mu_);
    cv_.wait(g, [&] { return abandoned_ || kv_.count(k) > 0; });
    if (abandoned_) return false;
    v = kv_[k];
    return true;
  }
  bool fence() {
    std::unique_lock g(mu_);
    const int gen = generation_;
    if (++arrived_ == n_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return !abandoned_;
    }
    cv_.wait(g, [&] { return abandoned_ || generation_ != gen; });
    return !abandoned_;
  }
  void abandon() {
    std::lock_guard g(mu_);
    abandoned_ = true;
    cv_.notify_all();
  }

 private:
  int n_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, std::string> kv_;
  int arrived_ = 0;
  int generation_ = 0;
  bool abandoned_ = false;
};

class LocalBootstrap final : public bootstrap::Bootstrap {
 public:
  LocalBootstrap(LocalStore& s, int rank, int size) : s_(s), rank_(rank), size_(size) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string_view kind() const override { return "threads"; }
  Status put(const std::string& k, const std::string& v) override {
    s_.put(k, v);
    return Status::ok();
  }
  Result<std::string> get(const std::string& k) override {
    std::string v;
    if (!s_.get(k, v)) return abandoned();
    return v;
  }
  Status fence() override { return s_.fence() ? Status::ok() : abandoned(); }

 private:
  static Status abandoned() {
    return {ErrorClass::proc_failed, "another rank of the in-process job failed to start"};
  }

  LocalStore& s_;
  int rank_;
  int size_;
};

// Why a job's ranks did not all start: the first failure that is not a rank giving up on
// an abandoned store (that only says another rank failed first); ok when every rank started.
inline Status cause_of(const std::vector<Status>& errors) {
  for (const Status& e : errors)
    if (!e && e.error_class() != ErrorClass::proc_failed) return e;
  for (const Status& e : errors)
    if (!e) return e;
  return Status::ok();
}

// Runs fn on every rank (a thread each) and joins them. Returns why a rank failed to start.
inline Status run_job(int n, RuntimeConfig config, const std::function<void(Runtime&)>& fn) {
  static std::atomic<int> job_counter{0};
  config.name_prefix = "rmabench-test." + std::to_string(::getpid()) + "." +
                       std::to_string(job_counter.fetch_add(1));
  LocalStore store(n);
  std::vector<Status> errors(static_cast<std::size_t>(n));
  std::vector<std::thread> ranks;
  for (int r = 0; r < n; ++r) {
    ranks.emplace_back([&, r] {
      LocalBootstrap boot(store, r, n);
      auto rt = Runtime::create(config, boot);
      if (!rt) {
        errors[static_cast<std::size_t>(r)] = rt.status();
        store.abandon();
        return;
      }
      fn(*rt.value());
      (void)rt.value()->barrier();  // nobody tears down while a peer still talks to it
    });
  }
  for (auto& t : ranks) t.join();
  return cause_of(errors);
}

// The shm transports of a job of `n` ranks, made by one thread per rank (creation is
// collective), for the caller to drive from any thread or process; or why a rank's
// creation failed.
inline Result<std::vector<std::unique_ptr<progress::Transport>>> shm_transports(
    int n, const std::string& name_prefix) {
  LocalStore store(n);
  RuntimeConfig config;
  config.name_prefix = name_prefix;
  std::vector<std::unique_ptr<progress::Transport>> out(static_cast<std::size_t>(n));
  std::vector<Status> errors(static_cast<std::size_t>(n));
  std::vector<std::thread> ranks;
  for (int r = 0; r < n; ++r)
    ranks.emplace_back([&, r] {
      LocalBootstrap boot(store, r, n);
      auto made = shm::create_transport(boot, config);
      if (made) {
        out[static_cast<std::size_t>(r)] = std::move(made.value());
      } else {
        errors[static_cast<std::size_t>(r)] = made.status();
        store.abandon();
      }
    });
  for (auto& t : ranks) t.join();
  if (Status why = cause_of(errors); !why) return why;
  return out;
}

}  // namespace rma::testing
