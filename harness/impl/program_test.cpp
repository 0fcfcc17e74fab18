#include "impl/program.hpp"

#include <gtest/gtest.h>

#include "impl/fake_implementation.hpp"

namespace harness::impl {
namespace {

call::Call make(call::Kind k) {
  call::Call c;
  c.kind = k;
  return c;
}

TEST(Program, ReplaysInOrderAndWaitsForEachRequest) {
  Program p;
  for (auto k : {call::Kind::lock, call::Kind::rput, call::Kind::put, call::Kind::unlock})
    p.add(make(k));
  FakeImplementation fake;
  ASSERT_TRUE(p.replay(fake));
  EXPECT_EQ(fake.log, (std::vector<std::string>{"lock", "rput", "rput.wait", "put", "unlock"}));
  EXPECT_EQ(p.summary(), "lock, rput, put, unlock");
}

TEST(Program, FirstFailureStopsTheReplay) {
  Program p;
  for (auto k : {call::Kind::fence, call::Kind::get, call::Kind::fence}) p.add(make(k));
  FakeImplementation fake;
  fake.fail_on = call::Kind::get;
  const rma::Status s = p.replay(fake);
  EXPECT_EQ(s.error_class(), rma::ErrorClass::rma_sync);
  EXPECT_EQ(fake.log, (std::vector<std::string>{"fence", "get"}));
}

TEST(Program, ReplaysABatchAsManyTimesInOrder) {
  Program p;
  for (auto k : {call::Kind::lock, call::Kind::put, call::Kind::unlock}) p.add(make(k));
  FakeImplementation fake;
  ASSERT_TRUE(p.replay(fake, 3));
  const std::vector<std::string> once{"lock", "put", "unlock"};
  std::vector<std::string> thrice;
  for (int i = 0; i < 3; ++i) thrice.insert(thrice.end(), once.begin(), once.end());
  EXPECT_EQ(fake.log, thrice);
}

TEST(Program, FirstFailureStopsTheWholeBatch) {
  Program p;
  for (auto k : {call::Kind::fence, call::Kind::get, call::Kind::fence}) p.add(make(k));
  FakeImplementation fake;
  fake.fail_on = call::Kind::get;
  const rma::Status s = p.replay(fake, 5);
  EXPECT_EQ(s.error_class(), rma::ErrorClass::rma_sync);
  EXPECT_EQ(fake.log, (std::vector<std::string>{"fence", "get"}));
}

TEST(Program, KeepsNeitherWindowMemoryCallsNorTest) {
  EXPECT_TRUE(Program::replays(call::Kind::put));
  EXPECT_TRUE(Program::replays(call::Kind::rget_accumulate));
  EXPECT_TRUE(Program::replays(call::Kind::recv));
  EXPECT_FALSE(Program::replays(call::Kind::attach));
  EXPECT_FALSE(Program::replays(call::Kind::free));
  EXPECT_FALSE(Program::replays(call::Kind::test));
  EXPECT_EQ(Program().summary(), "nothing");
}

}  // namespace
}  // namespace harness::impl
