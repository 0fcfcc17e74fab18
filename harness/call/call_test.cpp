#include "call/call.hpp"

#include <gtest/gtest.h>

namespace harness::call {
namespace {

TEST(Calls, EveryNameParsesBackToItsKind) {
  for (int i = 0; i < kind_count; ++i) {
    const auto k = static_cast<Kind>(i);
    EXPECT_EQ(parse_kind(to_string(k)), k) << to_string(k);
  }
  EXPECT_FALSE(parse_kind("frobnicate"));
  EXPECT_EQ(to_string(Kind::compare_and_swap), "compare_and_swap");
}

TEST(Calls, FamiliesAndCompletionFollowMpi) {
  EXPECT_EQ(family_of(Kind::put), Family::communication);
  EXPECT_EQ(family_of(Kind::rget_accumulate), Family::request);
  EXPECT_EQ(family_of(Kind::recv), Family::job);
  EXPECT_EQ(completes_of(Kind::unlock), Completes::target);
  EXPECT_EQ(completes_of(Kind::flush_local_all), Completes::all);
  EXPECT_EQ(completes_of(Kind::lock), Completes::none);
  EXPECT_TRUE(may_block(Kind::fence));
  EXPECT_TRUE(may_block(Kind::recv));
  EXPECT_TRUE(may_block(Kind::free));
  EXPECT_FALSE(may_block(Kind::test));
  EXPECT_FALSE(may_block(Kind::put));
}

TEST(Calls, ArgumentRolesAreListedInScriptOrder) {
  constexpr Args cas = describe(Kind::compare_and_swap).args;
  static_assert(cas.count == 6);
  EXPECT_EQ(cas.list[0], Arg::compare);
  EXPECT_EQ(cas.list[1], Arg::value);
  EXPECT_EQ(cas.list[5], Arg::result_or_return);
  EXPECT_TRUE(describe(Kind::lock).args.has(Arg::lock_type));
  EXPECT_FALSE(describe(Kind::unlock).args.has(Arg::asserts));
  EXPECT_EQ(describe(Kind::complete).args.count, 0);
  EXPECT_EQ(describe(Kind::send).args.list[0], Arg::target);
  EXPECT_EQ(describe(Kind::recv).args.list[1], Arg::result);
}

}  // namespace
}  // namespace harness::call
