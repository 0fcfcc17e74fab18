#include "worker/case_runner.hpp"

#include <set>
#include <string>

#include "lua/lua_rma.hpp"
#include "lua/lua_state.hpp"
#include "lua/rank_context.hpp"

namespace harness::worker {
namespace {

using nlohmann::json;

class Runner {
 public:
  Runner(const suite::CaseSpec& spec, rma::Runtime& rt, launcher::ControlChannel& ctrl,
         StateBoard& board)
      : spec_(spec), rt_(rt), ctrl_(ctrl), board_(board) {
    ctx_.rt = &rt;
    ctx_.spec = &spec;
    ctx_.log = [this](const std::string& line) {
      ctrl_.send({{"t", "log"}, {"text", line}});
    };
    board_.attach(&rt_, &ctx_);
  }
  ~Runner() { board_.attach(&rt_, nullptr); }

  json run() {
    lua_State* L = state_.get();
    lua::open_rma(L, ctx_);
    phase("load");
    lua::LuaFailure f;
    if (!lua::run_file(L, spec_.script, f)) return ended(f);
    if (!lua_istable(L, -1)) {
      f.message = "the script must return a case table, it returned " +
                  std::string(luaL_typename(L, -1));
      f.where = spec_.script;
      return ended(f);
    }
    case_idx_ = lua_gettop(L);
    lua::set_options(L, case_idx_, spec_.options);
    lua_newtable(L);  // ctx, shared by the hooks of this rank
    ctx_idx_ = lua_gettop(L);

    int iterations = 1;
    lua_getfield(L, case_idx_, "iterations");
    if (lua_isinteger(L, -1) && lua_tointeger(L, -1) > 0)
      iterations = static_cast<int>(lua_tointeger(L, -1));
    lua_pop(L, 1);

    if (!call_hook("setup", f)) return ended(f);
    if (!barrier(f)) return ended(f);

    // The counting window opens between two barriers: after the first, no traffic of any
    // rank's setup is left; until the second, no rank's run has begun (a fast rank's first
    // op must not reach a target that has not taken its snapshot yet).
    phase("run");
    const rma::Counters before = rt_.counters();
    if (!barrier(f)) return ended(f);
    for (int i = 0; i < iterations; ++i) {
      if (!call_hook("run", f)) return ended(f);
      if (!barrier(f)) return ended(f);
    }
    const rma::Counters during = rt_.counters() - before;

    json result = {{"t", "result"}, {"rank", rt_.rank()}, {"early", false}};
    result["messages"] = counters_json(during);
    result["iterations"] = iterations;
    if (rt_.rank() == 0 && !declared_messages(result, f)) return ended(f);

    if (!call_hook("check", f)) return ended(f, result);
    if (!barrier(f)) return ended(f, result);
    if (!call_hook("teardown", f)) return ended(f, result);
    if (!barrier(f)) return ended(f, result);
    phase("done");

    finish(result);
    result["status"] = ctx_.failures.empty() ? "pass" : "fail";
    return result;
  }

 private:
  void phase(const char* name) {
    phase_ = name;
    board_.set_phase(name);
  }

  // Calls hook `name` with ctx if the case table has it.
  bool call_hook(const char* name, lua::LuaFailure& f) {
    lua_State* L = state_.get();
    phase(name);
    lua_getfield(L, case_idx_, name);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      return true;
    }
    lua_pushvalue(L, ctx_idx_);
    return lua::protected_call(L, 1, 0, f);
  }

  bool barrier(lua::LuaFailure& f) {
    ctx_.set_where("harness barrier after " + phase_);
    rma::Status s = rt_.barrier();
    ctx_.set_where({});
    if (s) return true;
    f.where = "harness barrier after " + phase_;
    f.message = s.to_string();
    return false;
  }

  // `messages` of the case: a table, or a function returning one (called after run, so it
  // may look at rma.size and rma.opt). The declaration is the am protocol's cost; when every
  // window of the case ran on the direct path the expectation is no packet at all.
  bool declared_messages(json& result, lua::LuaFailure& f) {
    lua_State* L = state_.get();
    if (!ctx_.paths.empty() && ctx_.paths == std::set<std::string>{"direct"}) {
      result["expected_messages"] = {{"total", 0}};
      return true;
    }
    lua_getfield(L, case_idx_, "messages");
    if (lua_isfunction(L, -1)) {
      lua_pushvalue(L, ctx_idx_);
      if (!lua::protected_call(L, 1, 1, f)) return false;
    }
    if (lua_istable(L, -1)) {
      json expected = json::object();
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_isinteger(L, -1))
          expected[lua_tostring(L, -2)] = lua_tointeger(L, -1);
        lua_pop(L, 1);
      }
      result["expected_messages"] = expected;
    }
    lua_pop(L, 1);
    return true;
  }

  void finish(json& result) {
    json failures = json::array();
    for (const auto& e : ctx_.failures) failures.push_back({{"where", e.where}, {"message", e.message}});
    result["failures"] = failures;
    result["metrics"] = ctx_.metrics;
    result["paths"] = ctx_.paths;
  }

  json ended(const lua::LuaFailure& f, json result = json::object()) {
    result["t"] = "result";
    result["rank"] = rt_.rank();
    result["early"] = true;
    finish(result);
    if (f.kind == "skip") {
      result["status"] = "skip";
      result["reason"] = f.message;
      return result;
    }
    result["status"] = f.kind == "fail" ? "fail" : "error";
    result["failures"].push_back({{"where", f.where}, {"message", f.message}});
    return result;
  }

  const suite::CaseSpec& spec_;
  rma::Runtime& rt_;
  launcher::ControlChannel& ctrl_;
  StateBoard& board_;
  lua::RankContext ctx_;
  lua::LuaState state_;
  int case_idx_ = 0;
  int ctx_idx_ = 0;
  std::string phase_;
};

}  // namespace

json run_case_script(const suite::CaseSpec& spec, rma::Runtime& rt, launcher::ControlChannel& ctrl,
                     StateBoard& board) {
  Runner r(spec, rt, ctrl, board);
  return r.run();
}

}  // namespace harness::worker
