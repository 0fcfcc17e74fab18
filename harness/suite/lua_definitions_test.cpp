// The language-server definition file (lua_scripts/meta/rma.lua) against what scripts really
// get: every name the bindings put in `rma`, on windows, buffers, requests and types (read
// from a rank's Lua state at run time), and every case-table field, is declared there, and it
// declares nothing else. A binding added or renamed without its definition fails here.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "impl/fake_implementation.hpp"
#include "lua/lua_buffer.hpp"
#include "lua/lua_rma.hpp"
#include "lua/lua_type.hpp"
#include "lua/lua_window.hpp"
#include "suite/case_table.hpp"

namespace harness::suite {
namespace {

using Names = std::set<std::string>;

// The string keys of the table at the top of the stack (popped).
Names keys_of(lua_State* L) {
  Names out;
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) out.insert(lua_tostring(L, -1));
  }
  lua_pop(L, 1);
  return out;
}

// The methods of userdata whose metatable is registered as `meta`: its __index table.
Names methods_of(lua_State* L, const char* meta) {
  luaL_getmetatable(L, meta);
  EXPECT_TRUE(lua_istable(L, -1)) << meta;
  lua_getfield(L, -1, "__index");
  lua_remove(L, -2);
  return keys_of(L);
}

// What the definition file declares: "rma" fields and functions, each class's methods by its
// local's name, and the fields of the class rma.case.
struct Declared {
  std::map<std::string, Names> by_class;
};

Declared read_definitions() {
  std::ifstream in(RMABENCH_SOURCE_DIR "/lua_scripts/meta/rma.lua");
  EXPECT_TRUE(in) << "no lua_scripts/meta/rma.lua";
  Declared d;
  std::map<std::string, std::string> class_of_local = {{"rma", "rma"}};
  const std::regex class_line(R"(^---@class (\S+))"), local_line(R"(^local (\w+) = \{\})"),
      field_line(R"(^---@field (\w+)\??)"), member(R"(^function (\w+)[.:](\w+)\()"),
      assignment(R"(^rma\.(\w+) = )");
  std::string current_class;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, class_line)) {
      current_class = m[1];
    } else if (std::regex_search(line, m, local_line)) {
      class_of_local[m[1]] = current_class;
    } else if (std::regex_search(line, m, field_line) && current_class == "rma.case") {
      d.by_class["rma.case"].insert(m[1]);
    } else if (std::regex_search(line, m, member)) {
      d.by_class[class_of_local[m[1]]].insert(m[2]);
    } else if (std::regex_search(line, m, assignment)) {
      d.by_class["rma"].insert(m[1]);
    }
  }
  return d;
}

class Definitions : public ::testing::Test {
 protected:
  Definitions() {
    ctx_.impl = &fake_;
    ctx_.backend = "shm";
    lua::open_rma(state_.get(), ctx_);
  }
  impl::FakeImplementation fake_;
  lua::RankContext ctx_;
  lua::LuaState state_;
  Declared declared_ = read_definitions();
};

TEST_F(Definitions, DeclareEveryNameOfRma) {
  lua_State* L = state_.get();
  lua_getglobal(L, "rma");
  const Names exposed = keys_of(L);
  EXPECT_GT(exposed.size(), 30u);  // the bindings were read, not an empty table
  EXPECT_EQ(declared_.by_class["rma"], exposed);
}

TEST_F(Definitions, DeclareEveryMethodOfWindowsBuffersRequestsAndTypes) {
  lua_State* L = state_.get();
  for (const auto& [cls, meta] :
       std::map<std::string, const char*>{{"rma.window", lua::kWindowMeta},
                                          {"rma.buffer", lua::kBufferMeta},
                                          {"rma.request", "rma.request"},
                                          {"rma.type", lua::kTypeMeta}}) {
    const Names exposed = methods_of(L, meta);
    EXPECT_FALSE(exposed.empty()) << cls;
    EXPECT_EQ(declared_.by_class[cls], exposed) << cls;
  }
}

TEST_F(Definitions, DeclareEveryCaseTableField) {
  const auto& fields = case_table_fields();
  EXPECT_EQ(declared_.by_class["rma.case"], Names(fields.begin(), fields.end()));
}

}  // namespace
}  // namespace harness::suite
