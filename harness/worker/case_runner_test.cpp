#include "worker/case_runner.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "impl/fake_implementation.hpp"
#include "support/temp_dir.hpp"
#include "worker/state_board.hpp"

namespace harness::worker {
namespace {

constexpr const char* kNoop =
    "return { name = 'noop', ranks = 1, run = function(ctx) rma.barrier() end }\n";

// A one-rank case of `body` (noop.lua) over the fake implementation, its log lines to
// /dev/null. `script_out`, when given, gets the script's path.
nlohmann::json run(impl::FakeImplementation& fake, StateBoard& board, const char* body = kNoop,
                   std::string* script_out = nullptr) {
  const test_support::TempDir dir("case-runner");
  const std::string script = dir.write("noop.lua", body);
  if (script_out) *script_out = script;
  suite::CaseSpec spec;
  spec.script = script;
  spec.ranks = 1;
  launcher::ControlChannel quiet(::open("/dev/null", O_WRONLY));
  return run_case_script(spec, fake, quiet, board);
}

TEST(CaseRunner, MessagesTheImplementationCannotObserveAreNullWithAReasonNotZero) {
  impl::FakeImplementation fake;  // counters(): nullopt
  StateBoard board;
  const auto r = run(fake, board);
  EXPECT_EQ(r.value("status", ""), "pass") << r.dump();
  ASSERT_TRUE(r.contains("messages"));
  EXPECT_TRUE(r["messages"].is_null());
  EXPECT_EQ(r.value("messages_reason", ""), "not observable in fake");
  // The script's barrier went through the implementation, between the harness's own.
  EXPECT_NE(std::find(fake.log.begin(), fake.log.end(), "barrier"), fake.log.end());
}

TEST(CaseRunner, ObservableMessagesAreMeasured) {
  impl::FakeImplementation fake;
  fake.counters_value = rma::Counters{};
  StateBoard board;
  const auto r = run(fake, board);
  ASSERT_TRUE(r["messages"].is_object()) << r.dump();
  EXPECT_FALSE(r.contains("messages_reason"));
}

TEST(CaseRunner, UnknownPacketTypeFromAMessagesFunctionIsAnErrorNamingKeyAndFile) {
  impl::FakeImplementation fake;
  fake.counters_value = rma::Counters{};
  StateBoard board;
  std::string script;
  const auto r = run(fake, board,
                     "return { ranks = 1, run = function(ctx) end,\n"
                     "  messages = function() return { total = 0, bogus = 0 } end }\n",
                     &script);
  EXPECT_EQ(r.value("status", ""), "error") << r.dump();
  ASSERT_EQ(r["failures"].size(), 1u) << r.dump();
  EXPECT_EQ(r["failures"][0].value("where", ""), script + ":2");
  EXPECT_NE(r["failures"][0]
                .value("message", "")
                .find("case table: field 'messages': unknown packet type 'bogus' (known: total "),
            std::string::npos)
      << r.dump();
}

TEST(CaseRunner, AMisspeltPacketTypeFromAMessagesFunctionNamesItsLineAndTheNearest) {
  impl::FakeImplementation fake;
  fake.counters_value = rma::Counters{};
  StateBoard board;
  std::string script;
  const auto r = run(fake, board,
                     "return { ranks = 1, run = function(ctx) end,\n"
                     "  messages = function()\n"
                     "    return { fetch_op = 1 } end }\n",
                     &script);
  EXPECT_EQ(r.value("status", ""), "error") << r.dump();
  ASSERT_EQ(r["failures"].size(), 1u) << r.dump();
  EXPECT_EQ(r["failures"][0].value("where", ""), script + ":2");
  EXPECT_NE(r["failures"][0]
                .value("message", "")
                .find("unknown packet type 'fetch_op' (did you mean 'fetch_and_op'?)"),
            std::string::npos)
      << r.dump();
}

TEST(StateBoard, CountersAppearOnlyWhereTheImplementationHasThem) {
  impl::FakeImplementation fake;
  StateBoard board;
  board.attach(&fake, nullptr);
  EXPECT_FALSE(board.snapshot(0).contains("counters"));
  fake.counters_value = rma::Counters{};
  EXPECT_TRUE(board.snapshot(0).contains("counters"));
  board.detach();
  EXPECT_EQ(board.snapshot(0).value("call", "?"), "");
}

}  // namespace
}  // namespace harness::worker
