// rank_context.hpp — what the Lua bindings of one rank share: the implementation under test,
// what the case runs on (backend, path, progress: shown to scripts as rma.backend, ...), the
// expectations that failed, metrics and log lines the script reported, the program being
// recorded, and which call the script is blocked in (read by the control thread for state
// dumps).
#pragma once

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
  std::string backend, path, progress;    // as the case names them

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
  }
  std::string where() const {
    std::lock_guard g(mu_);
    return where_;
  }

  static RankContext& of(lua_State* L);
  void install(lua_State* L);

 private:
  mutable std::mutex mu_;
  std::string where_;
};

// Marks a blocking binding's script position for the duration of a scope.
class WhereScope {
 public:
  WhereScope(RankContext& ctx, lua_State* L);
  ~WhereScope() { ctx_.set_where({}); }

 private:
  RankContext& ctx_;
};

}  // namespace harness::lua
