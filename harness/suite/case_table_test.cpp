// The case table's contract: every rejection names the file, the line where it is known, the
// field and what was expected; a valid table loads.
#include "suite/case_table.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "lua/lua_state.hpp"
#include "rma/counters.hpp"
#include "suite/script_info.hpp"
#include "support/temp_dir.hpp"

namespace harness::suite {
namespace {

// Writes `body` as DIR/stem.lua and returns its path.
std::string script(const std::string& stem, const std::string& body) {
  return test_support::program_temp_dir().write("case_table_test/" + stem + ".lua", body);
}

// The UsageError's message for the script, or "" when it loads.
std::string rejection(const std::string& path) {
  try {
    (void)load_script_info(path);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(CaseTable, ValidTableLoads) {
  const auto p = script("valid", R"(return {
  name = "valid",
  ranks = 3,
  iterations = 2,
  expect = "pass",
  options = { size = {"bytes", 8}, ratio = {"a number", 0.5}, on = {"a flag", true} },
  setup = function(ctx) end,
  run = function(ctx) end,
  check = function(ctx) end,
  teardown = function(ctx) end,
  messages = { total = 4 / 2, put = 1, ack = 1 },
}
)");
  EXPECT_EQ(rejection(p), "");
  const ScriptInfo info = load_script_info(p);
  EXPECT_EQ(info.name, "valid");
  EXPECT_EQ(info.ranks, 3);
  EXPECT_EQ(info.iterations, 2);
  EXPECT_EQ(info.hooks.size(), 4u);
  EXPECT_EQ(info.options.size(), 3u);
  EXPECT_EQ(info.messages, "table");
}

// Read outside any protected call, a metatable's __index that raised was a Lua panic
// (SIGABRT), and one that looped hung `list` for good.
TEST(CaseTable, AMetatableAnywhereIsRefusedBeforeAnyRead) {
  const auto p = script("meta", "return setmetatable({}, {__index = function() error('x') end})\n");
  EXPECT_EQ(rejection(p), p + ": the table it returns has a metatable: case tables and suites are "
                              "plain data, read without running Lua");
  const auto q = script("meta_nested", R"(return {
  ranks = 2,
  run = function() end,
  options = { size = setmetatable({"bytes", 8}, {__index = function() while true do end end}) },
})");
  EXPECT_NE(rejection(q).find(q + ": the table it returns has a metatable (at `options.size`)"),
            std::string::npos)
      << rejection(q);
}

TEST(CaseTable, MisspeltHookIsNamedWithTheNearestField) {
  const auto p =
      script("hook", "return {\n  run = function(ctx) end,\n  chekc = function(ctx)\n  end,\n}\n");
  EXPECT_EQ(rejection(p), p + ":3: case table: unknown field 'chekc' (did you mean 'check'?)");
}

TEST(CaseTable, UnknownFieldFarFromAnyListsTheKnownOnes) {
  const auto p = script("far", "return {\n  run = function(ctx) end,\n  frobnicate = 1,\n}\n");
  const std::string e = rejection(p);
  EXPECT_NE(e.find(p + ":3: case table: unknown field 'frobnicate' (known fields: name ranks"),
            std::string::npos)
      << e;
}

TEST(CaseTable, RanksMustBeAPositiveInteger) {
  EXPECT_EQ(rejection(script("word", "return {\n  ranks = \"four\",\n}\n")),
            script("word", "return {\n  ranks = \"four\",\n}\n") +
                ":2: case table: field 'ranks': expected a positive integer, got string \"four\"");
  EXPECT_NE(rejection(script("zero", "return { ranks = 0 }\n")).find("got integer 0"),
            std::string::npos);
  EXPECT_NE(rejection(script("flt", "return { ranks = 4 / 2 }\n")).find("got number 2.0"),
            std::string::npos);
  // -n and suites stop at 1024; a script's own count forked that many ranks.
  EXPECT_NE(
      rejection(script("many", "return { ranks = 100000 }\n"))
          .find("field 'ranks': expected at most 1024 ranks (as -n takes), got integer 100000"),
      std::string::npos);
  EXPECT_EQ(rejection(script("most", "return { ranks = 1024, run = function() end }\n")), "");
}

TEST(CaseTable, NonIntegerMessageCountIsAnError) {
  const auto p =
      script("half", "return {\n  run = function(ctx) end,\n  messages = { total = 5 / 2 },\n}\n");
  EXPECT_EQ(rejection(p), p + ":3: case table: field 'messages': entry 'total': expected an "
                              "integer count, got number 2.5 (use // for integer division)");
  // The per-type entries too, and a count given as a string.
  EXPECT_NE(rejection(script("pt", "return { messages = { total = 2, put = 1.5 } }\n"))
                .find("entry 'put': expected an integer count, got number 1.5"),
            std::string::npos);
  EXPECT_NE(rejection(script("ps", "return { messages = { total = \"2\" } }\n"))
                .find("entry 'total': expected an integer count, got string \"2\""),
            std::string::npos);
  EXPECT_NE(rejection(script("neg", "return { messages = { total = -1 } }\n"))
                .find("expected a count >= 0, got -1"),
            std::string::npos);
  EXPECT_NE(rejection(script("nest", "return { messages = { total = { put = 1 } } }\n"))
                .find("entry 'total': expected an integer count, got table"),
            std::string::npos);
}

TEST(CaseTable, MessageKeysAreRmaPacketTypesOrTotal) {
  // A misspelt type would be compared with a count of 0 forever: never checked.
  const auto p = script(
      "aks", "return {\n  run = function(ctx) end,\n  messages = { total = 0, aks = 0 },\n}\n");
  EXPECT_EQ(rejection(p), p + ":3: case table: field 'messages': unknown packet type 'aks' (did "
                              "you mean 'ack'?)");
  const std::string far =
      rejection(script("far_type", "return { messages = { total = 0, nosuchpacket = 3 } }\n"));
  EXPECT_NE(far.find("field 'messages': unknown packet type 'nosuchpacket' (known: total lock "
                     "lock_granted unlock"),
            std::string::npos)
      << far;
  // Packet types outside the rma class are never counted in `messages`.
  EXPECT_NE(rejection(script("p2p_type", "return { messages = { total = 0, p2p_eager = 1 } }\n"))
                .find("packet type 'p2p_eager' is p2p traffic, not an RMA packet"),
            std::string::npos);
  // Every RMA packet type, by the names counters.hpp gives them, is a key.
  std::string all = "return { messages = { total = 0";
  for (int i = 0; i < rma::packet_type_count; ++i)
    if (const auto t = static_cast<rma::PacketType>(i); rma::class_of(t) == rma::PacketClass::rma)
      all += ", " + std::string(rma::to_string(t)) + " = 0";
  EXPECT_EQ(rejection(script("all_types", all + " } }\n")), "");
}

TEST(CaseTable, MessagesIsATableAFunctionOrVaries) {
  EXPECT_EQ(rejection(script("fn", "return { messages = function(ctx) return nil end }\n")), "");
  EXPECT_EQ(rejection(script("varies", "return { messages = \"varies\" }\n")), "");
  EXPECT_NE(rejection(script("vary", "return { messages = \"vary\" }\n"))
                .find("field 'messages': expected a table of integer counts"),
            std::string::npos);
}

TEST(CaseTable, HooksMustBeFunctions) {
  const auto p = script("notfn", "return {\n  run = 3,\n}\n");
  EXPECT_EQ(rejection(p),
            p + ":2: case table: field 'run': expected a function(ctx), got integer 3");
}

TEST(CaseTable, OptionsAreDescriptionAndDefault) {
  EXPECT_NE(rejection(script("o1", "return { options = { size = 8 } }\n"))
                .find("option 'size': expected {\"description\", default}, got integer 8"),
            std::string::npos);
  EXPECT_NE(rejection(script("o2", "return { options = { size = {\"bytes\"} } }\n"))
                .find("option 'size': expected {\"description\", default}, got table"),
            std::string::npos);
  EXPECT_NE(rejection(script("o3", "return { options = { size = {8, 8} } }\n"))
                .find("option 'size': expected a string description first, got integer 8"),
            std::string::npos);
  EXPECT_NE(rejection(script("o4", "return { options = { f = {\"x\", function() end} } }\n"))
                .find("a default that is a number, string or boolean, got function"),
            std::string::npos);
  EXPECT_NE(rejection(script("o5", "return { options = 3 }\n")).find("field 'options': expected"),
            std::string::npos);
  // A value's __tostring is not called to describe it: this check runs outside any protected
  // call, where its error would abort the parent. (A metatable is refused before any read.)
  EXPECT_NE(rejection(script("o6",
                             "return { options = { size = setmetatable({}, { __tostring = "
                             "function() error('boom') end }) } }\n"))
                .find("has a metatable (at `options.size`)"),
            std::string::npos);
}

TEST(CaseTable, AnInlineOptionIsPinnedToItsOptionsLine) {
  // `count = 8` has no line of its own: the error carries the line of `options`.
  const auto p = script("o_inline", "return {\n  ranks = 2,\n  options = { count = 8 },\n}\n");
  const std::string r = rejection(p);
  EXPECT_EQ(r.rfind(p + ":3: ", 0), 0u) << r;
  EXPECT_NE(r.find("option 'count': expected {\"description\", default}"), std::string::npos) << r;
}

TEST(CaseTable, ExpectAndIterations) {
  EXPECT_NE(rejection(script("ex", "return { expect = \"fail\" }\n"))
                .find("field 'expect': expected \"pass\", \"deadlock\" or \"race\", got string "
                      "\"fail\""),
            std::string::npos);
  EXPECT_EQ(rejection(script("ex_race", "return { expect = \"race\" }\n")), "");
  EXPECT_NE(rejection(script("it", "return { iterations = 1.5 }\n"))
                .find("field 'iterations': expected a positive integer, got number 1.5"),
            std::string::npos);
}

// A value that is neither seconds nor a table was indexed as a table: a string crashed `run`.
TEST(CaseTable, TimeoutIsSecondsOrATable) {
  const std::string expected =
      "field 'timeout': expected seconds, or { seconds, option = seconds per unit of that "
      "numeric option }, got ";
  for (const auto& [stem, value, got] : {std::tuple{"t_string", "\"abc\"", "string \"abc\""},
                                         std::tuple{"t_function", "function() end", "function"},
                                         std::tuple{"t_bool", "true", "boolean true"},
                                         std::tuple{"t_nobase", "{ n = 1 }", "table {n=1}"}}) {
    const auto p = script(stem, std::string("return {\n  options = { n = {\"n\", 2} },\n"
                                            "  timeout = ") +
                                    value + ",\n}\n");
    EXPECT_EQ(rejection(p), p + ":3: case table: " + expected + got) << value;
  }
  EXPECT_EQ(rejection(script("t_ok",
                             "return { options = { n = {\"n\", 2} }, "
                             "timeout = { 5, n = 0.5 }, run = function() end }\n")),
            "");
}

TEST(CaseTable, NameMustBeTheFileStem) {
  EXPECT_EQ(rejection(script("stem_ok", "return { name = \"stem_ok\" }\n")), "");
  const auto p = script("stem_bad", "return {\n  name = \"stem-bad\",\n}\n");
  EXPECT_EQ(rejection(p), p + ":2: case table: field 'name': expected the file's stem "
                              "\"stem_bad\" (ids and reports use it; leave `name` out), got "
                              "\"stem-bad\"");
  EXPECT_NE(rejection(script("stem_num", "return { name = 3 }\n"))
                .find("field 'name': expected a string"),
            std::string::npos);
}

TEST(CaseTable, PositionalEntryIsAnError) {
  EXPECT_NE(rejection(script("pos", "return { function(ctx) end }\n"))
                .find("entry [1] has no field name"),
            std::string::npos);
}

TEST(CaseTable, EveryProblemIsReportedOnItsOwnLine) {
  const auto p = script("many", "return {\n  ranks = \"x\",\n  chekc = 1,\n}\n");
  EXPECT_EQ(rejection(p), p +
                              ":2: case table: field 'ranks': expected a positive integer, got "
                              "string \"x\"\n" +
                              p + ":3: case table: unknown field 'chekc' (did you mean 'check'?)");
}

TEST(CaseTable, ALuaErrorIsNotAContractError) {
  // A script that fails to run is the case's error (its ranks report it), not a usage error.
  const auto p = script("boom", "error('boom')\n");
  EXPECT_EQ(rejection(p), "");
  EXPECT_TRUE(load_script_info(p).load_error.has_value());
}

TEST(CaseTable, NearestWord) {
  const auto& f = case_table_fields();
  EXPECT_EQ(nearest_word("chekc", f), "check");
  EXPECT_EQ(nearest_word("setpu", f), "setup");
  EXPECT_EQ(nearest_word("rank", f), "ranks");
  EXPECT_EQ(nearest_word("message", f), "messages");
  EXPECT_EQ(nearest_word("xyz", f), "");
  EXPECT_EQ(nearest_word("frobnicate", f), "");
  // A shortening of a longer name is one too, within twice its length.
  const std::vector<std::string_view> types = {"put", "get", "fetch_and_op", "ack"};
  EXPECT_EQ(nearest_word("fetch_op", types), "fetch_and_op");
  EXPECT_EQ(nearest_word("fop", types), "");
}

TEST(CaseTable, ReadMessageCounts) {
  lua::LuaState st;
  lua_State* L = st.get();
  ASSERT_EQ(luaL_dostring(L, "return { total = 3, put = 2, ack = 3 // 3 }"), LUA_OK);
  nlohmann::json out;
  EXPECT_EQ(read_message_counts(L, -1, out), "");
  EXPECT_EQ(out, (nlohmann::json{{"total", 3}, {"put", 2}, {"ack", 1}}));
  lua_pop(L, 1);
  ASSERT_EQ(luaL_dostring(L, "return { total = 0.5 }"), LUA_OK);
  EXPECT_EQ(read_message_counts(L, -1, out),
            "entry 'total': expected an integer count, got number 0.5 (use // for integer "
            "division)");
  lua_pop(L, 1);
  // What a `messages` function returns is read here too: its keys are checked as well.
  ASSERT_EQ(luaL_dostring(L, "return { total = 0, bogus = 0 }"), LUA_OK);
  EXPECT_NE(read_message_counts(L, -1, out).find("unknown packet type 'bogus' (known: total "),
            std::string::npos);
  EXPECT_EQ(lua_gettop(L), 1);
}

}  // namespace
}  // namespace harness::suite
