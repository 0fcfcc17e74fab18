// script_session.hpp — a case script loaded in one rank: its Lua state with the `rma` table,
// the case table, options, the ctx table its hooks share, and the harness barriers between
// phases. The case runner and the benchmark runner both drive one.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "impl/implementation.hpp"
#include "launcher/control.hpp"
#include "lua/lua_state.hpp"
#include "lua/rank_context.hpp"
#include "suite/case_spec.hpp"
#include "worker/state_board.hpp"

namespace harness::worker {

class ScriptSession {
 public:
  ScriptSession(const suite::CaseSpec& spec, impl::Implementation& impl,
                launcher::ControlChannel& ctrl, StateBoard& board);
  ~ScriptSession();
  ScriptSession(const ScriptSession&) = delete;
  ScriptSession& operator=(const ScriptSession&) = delete;

  // Loads the script and sets rma.opt from the case's options.
  bool load(lua::LuaFailure& f);
  // Option values replace the case's (e.g. a benchmark's size and sync).
  void set_options(const std::map<std::string, std::string>& values);
  // Declared option names of the case table.
  std::set<std::string> declared_options() const;
  // rma.opt[name] as text (the value in effect: given or default), "" if unset.
  std::string option_value(const std::string& name) const;
  // A fresh ctx table for the hooks, in `slot` (a benchmark of several am protocols keeps one
  // per protocol alive); it becomes the one the hooks get. A new slot is the next index of
  // the Lua stack the session keeps (nothing else is left on it between hooks).
  void new_ctx(std::size_t slot = 0);
  // The hooks get the ctx table of `slot` (made by new_ctx).
  void use_ctx(std::size_t slot);
  // The am protocol the script sees as rma.protocol from now on, and the windows it creates
  // from now on run (window info `protocol`, unless the script gives one).
  void set_protocol(rma::Protocol p);
  int iterations() const;

  void phase(const char* name);
  bool call_hook(const char* name, lua::LuaFailure& f);
  bool barrier(lua::LuaFailure& f);
  // The case's declared `messages` (a table, or a function called with ctx), as JSON; the
  // direct path's expectation (no packet) when every window ran direct, `direct_varies` when
  // the script said `varies`.
  bool declared_messages(nlohmann::json& out, lua::LuaFailure& f);

  // Result messages.
  void add_context(nlohmann::json& result);
  nlohmann::json ended(const lua::LuaFailure& f, nlohmann::json result = nlohmann::json::object());

  lua::RankContext& ctx() { return ctx_; }
  impl::Implementation& impl() { return impl_; }
  launcher::ControlChannel& ctrl() { return ctrl_; }
  const suite::CaseSpec& spec() const { return spec_; }

 private:
  bool script_declaration(nlohmann::json& out, lua::LuaFailure& f);

  const suite::CaseSpec& spec_;
  impl::Implementation& impl_;
  launcher::ControlChannel& ctrl_;
  StateBoard& board_;
  lua::RankContext ctx_;
  lua::LuaState state_;
  int case_idx_ = 0;
  int ctx_idx_ = 0;             // stack index of the ctx table the hooks get
  std::vector<int> ctx_slots_;  // stack index of each slot's ctx table
  std::string phase_;
};

}  // namespace harness::worker
