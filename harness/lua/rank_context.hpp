// rank_context.hpp — what the Lua bindings of one rank share: the implementation under test,
// what the case runs on (backend, path, progress: shown to scripts as rma.backend, ...), the
// expectations that failed, metrics and log lines the script reported, the program being
// recorded, and which call the script is blocked in (read by the control thread for state
// dumps).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "impl/implementation.hpp"
#include "impl/program.hpp"

struct lua_State;

namespace harness::lua {

struct ExpectFailure {
  std::string where;
  std::string message;
};

class RankContext {
 public:
  impl::Implementation* impl = nullptr;  // null in the parent's descriptive state
  std::string backend, path, progress;   // as the case names them
  std::string protocol = "fewest";       // am packet protocol the case runs: fewest | ch3
  // Non-empty: the am protocol rma.window gives the windows it creates (info `protocol`, where
  // the script's info names none): a benchmark measuring several protocols in one run.
  std::string window_protocol;

  std::vector<ExpectFailure> failures;
  std::map<std::string, double> metrics;
  std::set<std::string> paths;  // path of every window the script created
  std::function<void(const std::string&)> log;
  // While set, the RMA calls a hook makes are also appended here (benchmarks replay them).
  impl::Program* recorder = nullptr;

  // The script position of the library call in progress ("" when in Lua code).
  void set_where(std::string w) {
    std::lock_guard g(mu_);
    where_ = std::move(w);
    where_line_ = -1;
    active_.store(!where_.empty(), std::memory_order_release);
  }
  std::string where() const {
    std::lock_guard g(mu_);
    return active_.load(std::memory_order_acquire) ? where_ : std::string();
  }
  // A call at script position `src`:`line` begins (null `src`: no position); its text is
  // built only when the position differs from the last one, so a loop's calls cost a compare
  // and an atomic store.
  void enter_call(const char* src, int line) {
    if (src && line == where_line_ && where_src_ == src) {
      active_.store(true, std::memory_order_release);
      return;
    }
    std::string w = src ? std::string(src) + ":" + std::to_string(line) : std::string();
    where_src_ = src ? src : "";
    where_line_ = src ? line : -1;
    std::lock_guard g(mu_);
    where_ = std::move(w);
    active_.store(src != nullptr, std::memory_order_release);
  }
  void leave_call() { active_.store(false, std::memory_order_release); }

  static RankContext& of(lua_State* L);
  void install(lua_State* L);

 private:
  mutable std::mutex mu_;
  std::string where_;  // guarded by mu_; shown while active_
  std::atomic<bool> active_{false};
  std::string where_src_;  // main thread only: the position where_ describes
  int where_line_ = -1;
};

// The script's file:line of the call in progress (the first frame up with a line), "?" if none.
std::string script_position(lua_State* L);

// Marks a blocking binding's script position for the duration of a scope.
class WhereScope {
 public:
  WhereScope(RankContext& ctx, lua_State* L);
  ~WhereScope() { ctx_.leave_call(); }

 private:
  RankContext& ctx_;
};

}  // namespace harness::lua
