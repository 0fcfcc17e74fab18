// Loading scripts and locating their failures: an error raised with a value that is not a
// message still reaches the report with its line and what it was, and a file whose top level
// never returns is stopped at run_file's limit with its line.
#include "lua/lua_state.hpp"
#include "support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace harness::lua {
namespace {

std::string script(const std::string& tag, const std::string& body) {
  return test_support::program_temp_dir().write("lua_state_test/" + tag + ".lua", body);
}

LuaFailure failure_of(const std::string& path,
                      std::chrono::milliseconds limit = std::chrono::milliseconds(0)) {
  LuaState st;
  LuaFailure f;
  EXPECT_FALSE(run_file(st.get(), path, f, limit));
  return f;
}

TEST(LuaFailures, ATableRaisedIsDescribedAtItsLine) {
  const auto p = script("table", "local x = 1\nerror({code = 5})\nreturn {}\n");
  const LuaFailure f = failure_of(p);
  EXPECT_EQ(f.where, p + ":2");
  EXPECT_EQ(f.message, "error raised with table {code=5}, not a message");
  // Fields sorted (string keys come in another order each run), strings quoted and cut.
  const auto q = script("fields", "error({ z = true, b = 'x', a = 1, [2] = 'two', c = {} })\n");
  EXPECT_EQ(failure_of(q).message,
            "error raised with table {2=\"two\", a=1, b=\"x\", z=true}, not a message");
  const auto r = script("more", "error({ a = 1, b = 2, c = 3, d = 4, e = 5 })\n");
  EXPECT_EQ(failure_of(r).message,
            "error raised with table {a=1, b=2, c=3, d=4, ...}, not a message");
}

TEST(LuaFailures, NilAndBooleansRaisedAreNamed) {
  const auto p = script("nil", "error()\n");
  EXPECT_EQ(failure_of(p).message, "error raised with nil, not a message");
  const auto q = script("bool", "\nerror(false)\n");
  const LuaFailure f = failure_of(q);
  EXPECT_EQ(f.where, q + ":2");
  EXPECT_EQ(f.message, "error raised with boolean false, not a message");
}

TEST(LuaFailures, ATableWithToStringSaysWhatItGives) {
  const auto p = script(
      "tostring", "error(setmetatable({}, { __tostring = function() return 'custom' end }))\n");
  EXPECT_EQ(failure_of(p).message, "error raised with table (custom), not a message");
}

// An error inside the message handler became "error in error handling", with no line.
TEST(LuaFailures, AToStringThatFailsKeepsTheLine) {
  const auto p = script(
      "badtostring", "\nerror(setmetatable({}, { __tostring = function() error('oops') end }))\n");
  const LuaFailure f = failure_of(p);
  EXPECT_EQ(f.where, p + ":2");
  EXPECT_NE(f.message.find("error raised with table (its __tostring failed: "), std::string::npos)
      << f.message;
  EXPECT_NE(f.message.find("oops"), std::string::npos) << f.message;
  const auto q =
      script("numtostring", "error(setmetatable({}, { __tostring = function() return {} end }))\n");
  EXPECT_NE(failure_of(q).message.find("'__tostring' must return a string"), std::string::npos)
      << failure_of(q).message;
}

// lua_close runs finalizers with hooks off: one that looped held the process at exit.
TEST(LuaFailures, AFinalizerIsRefusedAtItsLine) {
  const auto p =
      script("gc", "local t = setmetatable({}, {})\nsetmetatable({}, {__gc = function() end})\n");
  const LuaFailure f = failure_of(p);
  EXPECT_EQ(f.where, p + ":2");
  EXPECT_NE(f.message.find("a __gc finalizer is not allowed"), std::string::npos) << f.message;
  // Nor through an object marked already (a file's C finalizer swapped for a Lua one), nor
  // through the debug library.
  const auto q =
      script("filegc", "getmetatable(io.stdout).__gc = function() while true do end end\n");
  EXPECT_NE(failure_of(q).message.find("attempt to index a boolean value"), std::string::npos)
      << failure_of(q).message;
  const auto d = script("debuggc", "debug.getregistry()\n");
  EXPECT_EQ(failure_of(d).where, d + ":1");
  // What scripts use still works, and Lua's own argument errors keep their names.
  const auto ok = script("meta_ok", R"(local mt = {}
local t = setmetatable({}, mt)
assert(getmetatable(t) == mt and getmetatable(io.stdout) == false)
assert(type(debug.traceback()) == "string")
return { ranks = 1 }
)");
  LuaState st;
  LuaFailure none;
  EXPECT_TRUE(run_file(st.get(), ok, none)) << none.message;
  const auto bad = script("meta_bad", "setmetatable({}, 5)\n");
  EXPECT_NE(
      failure_of(bad).message.find("bad argument #2 to 'setmetatable' (nil or table expected"),
      std::string::npos)
      << failure_of(bad).message;
}

TEST(LuaFailures, RmaErrorTablesAndMarkersKeepTheirFields) {
  const auto p = script("rma", "error({ class = 'RMA_SYNC', op = 'put', message = 'no epoch' })\n");
  const LuaFailure f = failure_of(p);
  EXPECT_EQ(f.error_class, "RMA_SYNC");
  EXPECT_EQ(f.message, "RMA_SYNC in put: no epoch");
  const auto q = script("skip", "error({ rmabench = 'skip', message = 'needs 4 ranks' })\n");
  const LuaFailure g = failure_of(q);
  EXPECT_EQ(g.kind, "skip");
  EXPECT_EQ(g.message, "needs 4 ranks");
}

TEST(LuaFailures, ATopLevelThatNeverReturnsStopsAtTheLimitWithItsLine) {
  const auto p = script("loop", "local n = 0\nwhile true do n = n + 1 end\n");
  const LuaFailure f = failure_of(p, std::chrono::milliseconds(50));
  EXPECT_EQ(f.kind, "timeout");
  EXPECT_EQ(f.where, p + ":2");
  EXPECT_NE(f.message.find("ran for more than"), std::string::npos) << f.message;
}

TEST(LuaFailures, APcallInTheLoopDoesNotOutlastTheLimit) {
  // The loop catches the first error the limit raises; the next one it does not.
  const auto p = script("pcall",
                        "local function spin() while true do end end\n"
                        "while true do pcall(spin) end\n");
  const LuaFailure f = failure_of(p, std::chrono::milliseconds(50));
  EXPECT_EQ(f.kind, "timeout");
  EXPECT_NE(f.message.find("ran for more than"), std::string::npos) << f.message;
}

TEST(LuaFailures, ALoopInAFunctionIsLocatedAtItsOwnLineOnly) {
  const auto p = script("nested", "local function spin()\n  while true do end\nend\nspin()\n");
  const LuaFailure f = failure_of(p, std::chrono::milliseconds(50));
  EXPECT_EQ(f.where, p + ":2");
  EXPECT_EQ(f.message.find(p), std::string::npos) << f.message;  // no second location
}

TEST(LuaFailures, TheLimitDoesNotOutliveItsFile) {
  // The hook is removed when the file returns: a later call in the same state runs unbounded.
  LuaState st;
  LuaFailure f;
  const auto p = script("quick", "return { ranks = 2 }\n");
  ASSERT_TRUE(run_file(st.get(), p, f, std::chrono::milliseconds(50)));
  lua_Hook h = lua_gethook(st.get());
  EXPECT_EQ(h, nullptr);
}

}  // namespace
}  // namespace harness::lua
