#include "worker/script_session.hpp"

#include <string_view>

#include "lua/lua_rma.hpp"
#include "races/recorder.hpp"
#include "suite/case_table.hpp"

namespace harness::worker {

using nlohmann::json;

ScriptSession::ScriptSession(const suite::CaseSpec& spec, impl::Implementation& impl,
                             launcher::ControlChannel& ctrl, StateBoard& board)
    : spec_(spec), impl_(impl), ctrl_(ctrl), board_(board) {
  ctx_.impl = &impl;
  ctx_.backend = spec.backend;
  ctx_.path = spec.path_name();
  ctx_.progress = suite::name(spec.progress);
  ctx_.protocol = suite::name(spec.protocols.front());  // a paired bench case: its first
  ctx_.log = [this](const std::string& line) { ctrl_.send(launcher::Log{line}); };
  board_.attach(&impl_, &ctx_);
}

ScriptSession::~ScriptSession() {
  board_.attach(&impl_, nullptr);
}

bool ScriptSession::load(lua::LuaFailure& f) {
  lua_State* L = state_.get();
  lua::open_rma(L, ctx_);
  phase("load");
  if (!lua::run_file(L, spec_.script, f)) return false;
  if (!lua_istable(L, -1)) {
    f.message =
        "the script must return a case table, it returned " + std::string(luaL_typename(L, -1));
    f.where = spec_.script;
    return false;
  }
  case_idx_ = lua_gettop(L);
  lua::set_options(L, case_idx_, spec_.options);
  new_ctx();
  return true;
}

void ScriptSession::set_options(const std::map<std::string, std::string>& values) {
  lua::set_options(state_.get(), case_idx_, values);
}

std::set<std::string> ScriptSession::declared_options() const {
  lua_State* L = state_.get();
  std::set<std::string> out;
  lua_getfield(L, case_idx_, "options");
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) == LUA_TSTRING) out.insert(lua_tostring(L, -2));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return out;
}

std::string ScriptSession::option_value(const std::string& name) const {
  lua_State* L = state_.get();
  lua_getglobal(L, "rma");
  lua_getfield(L, -1, "opt");
  lua_getfield(L, -1, name.c_str());
  std::string v;
  if (lua_type(L, -1) == LUA_TBOOLEAN)
    v = lua_toboolean(L, -1) ? "true" : "false";
  else if (lua_type(L, -1) == LUA_TNUMBER || lua_type(L, -1) == LUA_TSTRING)
    v = lua_tostring(L, -1);
  lua_pop(L, 3);
  return v;
}

void ScriptSession::new_ctx(std::size_t slot) {
  lua_State* L = state_.get();
  // A slot not made yet gets its table on top of the stack the session keeps.
  while (ctx_slots_.size() <= slot) {
    lua_newtable(L);
    ctx_slots_.push_back(lua_gettop(L));
  }
  lua_newtable(L);
  lua_replace(L, ctx_slots_[slot]);
  use_ctx(slot);
}

void ScriptSession::use_ctx(std::size_t slot) {
  ctx_idx_ = ctx_slots_.at(slot);
}

void ScriptSession::set_protocol(rma::Protocol p) {
  lua_State* L = state_.get();
  const std::string protocol = suite::name(p);
  ctx_.protocol = protocol;
  ctx_.window_protocol = protocol;
  lua_getglobal(L, "rma");
  lua_pushstring(L, protocol.c_str());
  lua_setfield(L, -2, "protocol");
  lua_pop(L, 1);
}

int ScriptSession::iterations() const {
  lua_State* L = state_.get();
  int n = 1;
  lua_getfield(L, case_idx_, "iterations");
  if (lua_isinteger(L, -1) && lua_tointeger(L, -1) > 0) n = static_cast<int>(lua_tointeger(L, -1));
  lua_pop(L, 1);
  return n;
}

void ScriptSession::phase(const char* name) {
  phase_ = name;
  board_.set_phase(name);
}

bool ScriptSession::call_hook(const char* name, lua::LuaFailure& f) {
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

bool ScriptSession::barrier(lua::LuaFailure& f) {
  ctx_.set_where("harness barrier after " + phase_);
  rma::Status s = impl_.barrier();
  ctx_.set_where({});
  if (s) {
    if (races::Recorder* rec = races::Recorder::active())
      rec->barrier("harness barrier after " + phase_);
    return true;
  }
  f.where = "harness barrier after " + phase_;
  f.message = s.to_string();
  return false;
}

bool ScriptSession::declared_messages(json& out, lua::LuaFailure& f) {
  if (!script_declaration(out, f)) return false;
  // Every window on the direct path: no packet is expected, unless some op had to take the
  // am slots (am_fallback), which the parent can tell from every rank's counters. Whether
  // those ops' packets depend on timing is still the script's word.
  if (!ctx_.paths.empty() && ctx_.paths == std::set<std::string>{"direct"}) {
    const bool varies = suite::declared_kind(out) == suite::Declared::varies;
    out = suite::declaration(varies ? suite::Declared::direct_varies : suite::Declared::direct);
  }
  return true;
}

bool ScriptSession::script_declaration(json& out, lua::LuaFailure& f) {
  lua_State* L = state_.get();
  lua_getfield(L, case_idx_, "messages");
  // A wrong result names the function's line: that is where the writer looks.
  std::string where = spec_.script;
  if (lua_isfunction(L, -1)) {
    lua_Debug ar;
    lua_pushvalue(L, -1);
    if (lua_getinfo(L, ">S", &ar) && ar.linedefined > 0)
      where += ":" + std::to_string(ar.linedefined);
    lua_pushvalue(L, ctx_idx_);
    if (!lua::protected_call(L, 1, 1, f)) return false;
  }
  // The declared table was checked in the parent (suite/case_table.hpp); what a function
  // returns is checked here, against the same contract.
  std::string err;
  if (lua_istable(L, -1)) {
    json expected;
    err = suite::read_message_counts(L, -1, expected);
    out = expected;
  } else if (suite::is_varies(L, -1)) {
    out = suite::declaration(suite::Declared::varies);
  } else if (!lua_isnil(L, -1)) {
    err = "expected a table of integer counts, nil or \"varies\", got " +
          suite::describe_value(L, -1);
  }
  lua_pop(L, 1);
  if (err.empty()) return true;
  f.where = where;
  f.message = "case table: field 'messages': " + err;
  return false;
}

void ScriptSession::add_context(json& result) {
  json failures = json::array();
  for (const auto& e : ctx_.failures)
    failures.push_back({{"where", e.where}, {"message", e.message}});
  result["failures"] = failures;
  result["metrics"] = ctx_.metrics;
  result["paths"] = ctx_.paths;
}

json ScriptSession::ended(const lua::LuaFailure& f, json result) {
  result["rank"] = impl_.rank();
  result["early"] = true;
  add_context(result);
  if (f.kind == "skip") {
    result["status"] = "skip";
    result["reason"] = f.message;
    return result;
  }
  result["status"] = f.kind == "fail" ? "fail" : "error";
  result["failures"].push_back({{"where", f.where}, {"message", f.message}});
  return result;
}

}  // namespace harness::worker
