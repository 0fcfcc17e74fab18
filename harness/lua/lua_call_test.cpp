#include "lua/lua_call.hpp"

#include <cstring>

#include <gtest/gtest.h>

#include "impl/fake_implementation.hpp"
#include "lua/lua_rma.hpp"

namespace harness::lua {
namespace {

// A rank's `rma` table over the fake implementation; run() executes a chunk and returns its
// error ("" when it ran).
class Bindings : public ::testing::Test {
 protected:
  Bindings() {
    ctx_.impl = &fake_;
    ctx_.backend = "shm";
    open_rma(state_.get(), ctx_);
  }
  std::string run(const char* chunk) {
    lua_State* L = state_.get();
    LuaFailure f;
    if (luaL_loadstring(L, chunk) != LUA_OK) return lua_tostring(L, -1);
    if (protected_call(L, 0, 0, f)) return "";
    return (f.error_class.empty() ? "" : f.error_class + "|") + f.message;
  }
  // Runs `chunk` as the script x.lua: its failure, located as a script's errors are.
  LuaFailure run_script(const char* chunk) {
    lua_State* L = state_.get();
    LuaFailure f;
    if (luaL_loadbuffer(L, chunk, std::strlen(chunk), "@x.lua") != LUA_OK) {
      f.message = lua_tostring(L, -1);
      lua_pop(L, 1);
    } else {
      (void)protected_call(L, 0, 0, f);
    }
    return f;
  }
  impl::FakeImplementation fake_;
  RankContext ctx_;
  LuaState state_;
};

TEST_F(Bindings, JobCallsFillTheirCallByRole) {
  ASSERT_EQ(run("local b = rma.buffer(4, 'i32')\n"
                "rma.send(1, b, 5)\n"
                "assert(rma.recv(0, b:sub(1), 7) == 3)\n"
                "rma.barrier()"),
            "");
  ASSERT_EQ(fake_.calls.size(), 3u);
  const call::Call& send = fake_.calls[0];
  EXPECT_EQ(send.kind, call::Kind::send);
  EXPECT_EQ(send.target, 1);
  EXPECT_EQ(send.tag, 5);
  EXPECT_EQ(send.bytes, 16u);
  EXPECT_EQ(fake_.calls[1].kind, call::Kind::recv);
  EXPECT_EQ(fake_.calls[1].bytes, 12u);
  EXPECT_EQ(fake_.calls[2].kind, call::Kind::barrier);
  EXPECT_NE(run("rma.send(1, rma.buffer(1), -1)").find("tag -1 is outside 0..2^30"),
            std::string::npos);
  // The harness's own tags, at either end of their range, are refused; their neighbours not.
  const std::size_t before = fake_.calls.size();
  EXPECT_NE(run("rma.send(1, rma.buffer(1), 32764)").find("tag 32764 is reserved"),
            std::string::npos);
  EXPECT_NE(run("rma.recv(0, rma.buffer(1), 32767)").find("tag 32767 is reserved"),
            std::string::npos);
  EXPECT_EQ(fake_.calls.size(), before);  // neither reached the implementation
  EXPECT_EQ(run("rma.send(1, rma.buffer(1), 32763)"), "");
  EXPECT_EQ(run("rma.send(1, rma.buffer(1), 32768)"), "");
}

TEST_F(Bindings, WindowCallsReadEveryRole) {
  ASSERT_EQ(run("local w = rma.window{ size = 8 }\n"
                "w:lock(2, 'shared', {'nocheck'})\n"
                "w:accumulate(rma.buffer(2, 'i64'), 2, 3, 'sum')\n"
                "w:get_accumulate(nil, rma.buffer(2, 'i64'), 2, 0, 'no_op')\n"
                "w:unlock(2)\n"
                "w:post({0, 1})"),
            "");
  ASSERT_EQ(fake_.log,
            (std::vector<std::string>{"lock", "accumulate", "get_accumulate", "unlock", "post"}));
  EXPECT_EQ(fake_.calls[0].lock_type, rma::LockType::shared);
  EXPECT_EQ(fake_.calls[0].asserts, *rma::parse_assert("nocheck"));
  EXPECT_EQ(fake_.calls[1].disp, 3u);
  EXPECT_EQ(fake_.calls[1].op, rma::Op::sum);
  EXPECT_EQ(fake_.calls[1].count, 2u);
  EXPECT_EQ(fake_.calls[1].dtype, rma::Dtype::i64);
  EXPECT_EQ(fake_.calls[2].origin, nullptr);
  EXPECT_EQ(fake_.calls[4].group, (std::vector<int>{0, 1}));
}

TEST_F(Bindings, ArgumentErrorsKeepTheirClassAndText) {
  EXPECT_EQ(run("rma.window{ size = 8 }:lock(1, 'sometimes')"),
            "LOCKTYPE|LOCKTYPE in lock: unknown lock type 'sometimes' (known: exclusive shared)");
  EXPECT_EQ(run("rma.window{ size = 8 }:fence('sometimes')"),
            "ASSERT|ASSERT in fence: unknown assert 'sometimes' (known: nocheck nostore noput "
            "noprecede nosucceed)");
  EXPECT_EQ(run("rma.window{ size = 8 }:fence('noprecde')"),
            "ASSERT|ASSERT in fence: unknown assert 'noprecde' (did you mean 'noprecede'?)");
  EXPECT_EQ(run("local w = rma.window{ size = 8 }\n"
                "w:lock(0)\nw:fetch_and_op(1, 0, 0, 'summ', 'i64')"),
            "OP|OP in fetch_and_op: unknown op 'summ' (did you mean 'sum'?)");
  EXPECT_EQ(run("rma.buffer(1, '2ints')"),
            "TYPE|TYPE in buffer: unknown dtype '2ints' (did you mean '2int'?)");
  EXPECT_EQ(run("rma.window{ size = 8 }:put(rma.buffer(1), 1, -4)"),
            "DISP|DISP in displacement: target displacement -4 is negative");
  EXPECT_EQ(run("rma.window{ size = 8 }:get_accumulate(rma.buffer(1), rma.buffer(2), 1, 0, 'sum')"),
            "ARG|ARG in get_accumulate: origin and result buffers differ in dtype or count");
  EXPECT_EQ(run("rma.window{ size = 8 }:fetch_and_op(1, 1, 0, 'sum', 'q7')").substr(0, 5), "TYPE|");
  // The buffer cap counts bytes: 2^31 + 1 f64 elements are 16 GiB and 8 bytes.
  EXPECT_NE(
      run("rma.buffer(2^31 + 1, 'f64')").find("buffer of 2147483649 f64 elements is too large"),
      std::string::npos);
  // A rank beyond an int would wrap to another rank (2^32 + 1 to 1, 2^32 - 1 to PROC_NULL).
  EXPECT_EQ(run("rma.window{ size = 8 }:put(rma.buffer(1), 4294967297, 0)"),
            "RANK|RANK in put: rank 4294967297 is beyond an int");
  EXPECT_EQ(run("rma.window{ size = 8 }:post({0, 4294967295})"),
            "RANK|RANK in post: rank 4294967295 is beyond an int");
  EXPECT_EQ(run("rma.window{ size = 8 }:shared_query(-4294967296)"),
            "RANK|RANK in shared_query: rank -4294967296 is beyond an int");
}

TEST_F(Bindings, WindowFieldsAreCheckedByName) {
  // At the script's line, naming the field; a misspelt one with the nearest known field.
  const LuaFailure f =
      run_script("local x = 1\nrma.window{ size = 8, flavor = 'dynamic', paht = 'direct' }");
  EXPECT_EQ(f.where, "x.lua:2");
  EXPECT_EQ(f.message, "rma.window: unknown field 'paht' (did you mean 'path'?)");
  EXPECT_NE(run("rma.window{ size = 8, sise = 3, flavour = 'x' }")
                .find("rma.window: unknown field 'flavour' (did you mean 'flavor'?); unknown "
                      "field 'sise' (did you mean 'size'?)"),
            std::string::npos);
  EXPECT_NE(run("rma.window{ size = 8, frobnicate = 1 }")
                .find("unknown field 'frobnicate' (known fields: size disp_unit flavor info "
                      "path memory)"),
            std::string::npos);
  EXPECT_NE(run("rma.window{ 8 }").find("rma.window: entry [1] has no field name"),
            std::string::npos);
  // Unknown info keys are passed on: MPI has implementations ignore those they do not know.
  EXPECT_EQ(run("rma.window{ size = 8, info = { no_such_key = 'x' } }"), "");
}

TEST_F(Bindings, WindowFieldTypeErrorsNameTheField) {
  const LuaFailure f = run_script("local x = 1\nrma.window{ size = 'big' }");
  EXPECT_EQ(f.where, "x.lua:2");
  EXPECT_EQ(f.message, "rma.window: field 'size': number expected, got string \"big\"");
  EXPECT_NE(run("rma.window{ size = 2.5 }")
                .find("rma.window: field 'size': integer expected, got number 2.5"),
            std::string::npos);
  EXPECT_NE(run("rma.window{ size = 8, disp_unit = {} }")
                .find("rma.window: field 'disp_unit': number expected, got table"),
            std::string::npos);
  EXPECT_NE(run("rma.window{ size = 8, flavor = 3 }")
                .find("rma.window: field 'flavor': string expected, got integer 3"),
            std::string::npos);
  EXPECT_NE(run("rma.window{ size = 8, path = true }")
                .find("rma.window: field 'path': string expected, got boolean true"),
            std::string::npos);
  EXPECT_NE(run("rma.window{ size = 8, info = 'no_locks' }")
                .find("rma.window: field 'info': table expected, got string"),
            std::string::npos);
  EXPECT_NE(run("rma.window{ size = 8, info = { no_locks = {} } }")
                .find("rma.window: field 'info': entry 'no_locks': string, number or boolean "
                      "expected, got table"),
            std::string::npos);
  EXPECT_NE(run("rma.window{ flavor = 'create', memory = 'buf' }")
                .find("rma.window: field 'memory': rma.buffer expected, got string"),
            std::string::npos);
  EXPECT_EQ(run("rma.window{ size = 4 / 2, disp_unit = 1 }"), "");  // 2.0 is the integer 2
}

TEST_F(Bindings, WindowInfoEntriesNeedANameAndDispUnitAnInt) {
  // A listed hint would be dropped: the window would run without it.
  EXPECT_NE(run("rma.window{ size = 8, info = { 'no_locks' } }")
                .find("rma.window: field 'info': entry with key integer 1 has no name (write "
                      "name = value)"),
            std::string::npos);
  // 2^32 + 1 would wrap to a disp_unit of 1.
  const std::string wide = run("rma.window{ size = 8, disp_unit = 4294967297 }");
  EXPECT_EQ(wide.rfind("DISP|", 0), 0u) << wide;
  EXPECT_NE(wide.find("disp_unit 4294967297 is beyond an int"), std::string::npos) << wide;
}

TEST_F(Bindings, FetchAndOpWithoutAResultReturnsTheOldValueInsidePassiveEpochsOnly) {
  EXPECT_EQ(run("rma.window{ size = 8 }:fetch_and_op(1, 1, 0, 'sum', 'i64')"),
            "RMA_SYNC|RMA_SYNC in fetch_and_op: returning the old value needs a lock or lock_all "
            "epoch; pass a result buffer under fence or start");
  fake_.window.passive = true;
  fake_.log.clear();
  impl::Program program;  // keeps the operands alive, to be read below
  ctx_.recorder = &program;
  ASSERT_EQ(run("local w = rma.window{ size = 8 }\n"
                "assert(w:compare_and_swap(5, 6, 1, 0, 'i32') == 0)\n"
                "assert(w:fetch_and_op(1, 1, 0, 'sum', 'i64', rma.buffer(1, 'i64')) == nil)"),
            "");
  // The old value is completed at once (flush_local); with a result buffer, nothing more.
  EXPECT_EQ(fake_.log,
            (std::vector<std::string>{"compare_and_swap", "flush_local", "fetch_and_op"}));
  const call::Call& cas = fake_.calls[fake_.calls.size() - 3];
  int value = 0, compare = 0;
  std::memcpy(&value, cas.origin, 4);
  std::memcpy(&compare, cas.compare, 4);
  EXPECT_EQ(value, 6);
  EXPECT_EQ(compare, 5);
  EXPECT_EQ(program.summary(), "compare_and_swap, flush_local, fetch_and_op");
  ctx_.recorder = nullptr;
}

TEST_F(Bindings, SpecialResultsAndRecording) {
  impl::Program program;
  ctx_.recorder = &program;
  ASSERT_EQ(run("local w = rma.window{ size = 8 }\n"
                "assert(w:test() == false)\n"
                "local r = w:rput(rma.buffer(1), 1, 0)\n"
                "r:wait()\n"
                "w:flush(1)\n"
                "assert(type(w:attach(rma.buffer(8))) == 'number')"),
            "");
  EXPECT_EQ(program.summary(), "rput, flush");  // test and attach are not replayed
  EXPECT_NE(run("rma.window{ size = 8 }:free()").find("free inside a benchmarked run hook"),
            std::string::npos);
  ctx_.recorder = nullptr;
  EXPECT_EQ(run("rma.window{ size = 8 }:free()"), "");
}

}  // namespace
}  // namespace harness::lua
