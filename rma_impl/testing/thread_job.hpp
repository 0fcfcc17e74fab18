// thread_job.hpp — for unit tests: a job of N ranks as N threads of one process, each with
// its own Runtime over the real shm transport, bootstrapped through an in-process key-value
// store. Lets tests (and ThreadSanitizer) run the protocol and the progress agent without
// the launcher.
//
//   rma::testing::run_job(2, {}, [](rma::Runtime& rt) { ... });   // rethrows nothing;
//   failures are reported through GoogleTest assertions inside the function.
#pragma once

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "rma/bootstrap.hpp"
#include "rma/runtime.hpp"

namespace rma::testing {

class LocalStore {
 public:
  explicit LocalStore(int n) : n_(n) {}
  void put(const std::string& k, const std::string& v) {
    std::lock_guard g(mu_);
    kv_[k] = v;
    cv_.notify_all();
  }
  std::string get(const std::string& k) {
    std::unique_lock g(mu_);
    cv_.wait(g, [&] { return kv_.count(k) > 0; });
    return kv_[k];
  }
  void fence() {
    std::unique_lock g(mu_);
    const int gen = generation_;
    if (++arrived_ == n_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return;
    }
    cv_.wait(g, [&] { return generation_ != gen; });
  }

 private:
  int n_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, std::string> kv_;
  int arrived_ = 0;
  int generation_ = 0;
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
  Result<std::string> get(const std::string& k) override { return s_.get(k); }
  Status fence() override {
    s_.fence();
    return Status::ok();
  }

 private:
  LocalStore& s_;
  int rank_;
  int size_;
};

// Runs fn on every rank (a thread each) and joins them. Returns the first creation error.
inline Status run_job(int n, RuntimeConfig config, const std::function<void(Runtime&)>& fn) {
  static std::atomic<int> job_counter{0};
  config.name_prefix = "rmabench-test." + std::to_string(::getpid()) + "." +
                       std::to_string(job_counter.fetch_add(1));
  LocalStore store(n);
  std::mutex err_mu;
  Status first_error;
  std::vector<std::thread> ranks;
  for (int r = 0; r < n; ++r) {
    ranks.emplace_back([&, r] {
      LocalBootstrap boot(store, r, n);
      auto rt = Runtime::create(config, boot);
      if (!rt) {
        std::lock_guard g(err_mu);
        if (first_error) first_error = rt.status();
        return;
      }
      fn(*rt.value());
      (void)rt.value()->barrier();  // nobody tears down while a peer still talks to it
    });
  }
  for (auto& t : ranks) t.join();
  return first_error;
}

}  // namespace rma::testing
