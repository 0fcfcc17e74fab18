#include "launcher/control_messages.hpp"

#include <gtest/gtest.h>

#include <csignal>

namespace harness::launcher {
namespace {

template <class T>
T round_trip(const Message& m) {
  const Message back = decode_line(encode(m).dump());
  EXPECT_TRUE(std::holds_alternative<T>(back))
      << encode(m).dump() << " came back as index " << back.index();
  return std::holds_alternative<T>(back) ? std::get<T>(back) : T{};
}

TEST(ControlMessages, EveryMessageComesBackAsItsType) {
  const Hello h = round_trip<Hello>(Hello{.rank = 3,
                                          .pid = 42,
                                          .token = "tok",
                                          .impl = "mpich 4.0.2",
                                          .host = {.host = "h1", .netns = "ns", .node = "boot/1"}});
  EXPECT_EQ(h.rank, 3);
  EXPECT_EQ(h.pid, 42);
  EXPECT_EQ(h.token, "tok");
  EXPECT_EQ(h.impl, "mpich 4.0.2");
  EXPECT_EQ(h.host.netns, "ns");
  EXPECT_EQ(h.host.node, "boot/1");

  suite::CaseSpec spec;
  spec.id = "s/one[shm,direct,np=4]";
  spec.ranks = 4;
  spec.path = rma::Path::direct;
  EXPECT_EQ(round_trip<CaseMessage>(CaseMessage{spec}).spec.id, spec.id);
  EXPECT_EQ(round_trip<Log>(Log{"a line"}).text, "a line");
  EXPECT_EQ(
      round_trip<Figures>(Figures{nlohmann::json::array({{{"name", "x"}}})}).benchmarks.size(), 1u);
  EXPECT_EQ(round_trip<BatchDone>(BatchDone{7}).batch, 7u);
  EXPECT_EQ(round_trip<StopCompute>(StopCompute{9}).batch, 9u);
  const Result r = round_trip<Result>(error_result(1, "runtime", "no segment"));
  EXPECT_TRUE(r.early());
  EXPECT_EQ(r.body.value("status", ""), "error");
  EXPECT_FALSE(r.body.contains("t"));  // the body is the rank result's fields only
  EXPECT_EQ(round_trip<State>(State{{{"phase", "run"}}}).body.value("phase", ""), "run");
  EXPECT_EQ(round_trip<Signal>(Signal{11}).signal, 11);
  round_trip<Bye>(Bye{});
  round_trip<StateQuery>(StateQuery{});
  const StartRank start = round_trip<StartRank>(StartRank{2, 4, "t0"});
  EXPECT_EQ(start.rank, 2);
  EXPECT_EQ(start.size, 4);
  EXPECT_EQ(start.token, "t0");
  EXPECT_EQ(round_trip<StopRank>(StopRank{3}).rank, 3);
  const RankExited ended = round_trip<RankExited>(RankExited{1, 0, 9, ""});
  EXPECT_EQ(ended.rank, 1);
  EXPECT_EQ(ended.signal, 9);
  EXPECT_EQ(round_trip<RankExited>(RankExited{1, 127, 0, "no exec"}).error, "no exec");
  EXPECT_EQ(round_trip<Sweep>(Sweep{"rmabench.1.2"}).prefix, "rmabench.1.2");
  round_trip<Quit>(Quit{});
}

TEST(ControlMessages, BootstrapGreetingNamesItsRankAndIsNoMessage) {
  const auto g = read_bootstrap_greeting(bootstrap_greeting("t.1", 3));
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->token, "t.1");
  EXPECT_EQ(g->rank, 3);
  EXPECT_FALSE(read_bootstrap_greeting(encode(Hello{}).dump()).has_value());
}

TEST(ControlMessages, WhatIsNotAMessageIsNamedNotDropped) {
  EXPECT_EQ(std::get<Garbage>(decode_line("not json")).line, "not json");
  EXPECT_TRUE(std::holds_alternative<Garbage>(decode_line("[1,2]")));
  EXPECT_TRUE(std::holds_alternative<Unknown>(decode_line(R"({"t":"shout"})")));
  EXPECT_TRUE(std::holds_alternative<Unknown>(decode_line(R"({"rank":1})")));
  // A known type whose fields are unreadable is not taken as that message.
  EXPECT_TRUE(std::holds_alternative<Unknown>(decode_line(R"({"t":"log","text":5})")));
  EXPECT_TRUE(std::holds_alternative<Unknown>(decode_line(R"({"t":"case","id":1})")));
}

// The line a dying MPI rank writes from its signal handler is the codec's Signal.
TEST(ControlMessages, TheSignalHandlersLineDecodesAsSignal) {
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, 64}) {
    char buf[64];
    const std::size_t n = signal_line(sig, buf);
    ASSERT_EQ(buf[n - 1], '\n');
    const Message m = decode_line(std::string(buf, n - 1));
    ASSERT_TRUE(std::holds_alternative<Signal>(m)) << std::string(buf, n);
    EXPECT_EQ(std::get<Signal>(m).signal, sig);
  }
}

}  // namespace
}  // namespace harness::launcher
