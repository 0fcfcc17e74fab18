#include "cli/sizes.hpp"

#include <gtest/gtest.h>

namespace harness::cli {
namespace {

TEST(Sizes, RangeIsPowersOfTwo) {
  std::string err;
  auto s = parse_sizes("1:4M", err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->size(), 23u);
  EXPECT_EQ(s->front(), 1u);
  EXPECT_EQ(s->back(), 4u << 20);
}

TEST(Sizes, ListWithSuffixes) {
  std::string err;
  auto s = parse_sizes("8,64,1K,2m", err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(*s, (std::vector<std::uint64_t>{8, 64, 1024, 2u << 20}));
}

TEST(Sizes, BadInputNamesThePart) {
  std::string err;
  EXPECT_FALSE(parse_sizes("8,huge", err));
  EXPECT_NE(err.find("'huge'"), std::string::npos);
  EXPECT_FALSE(parse_sizes("4M:1", err));
  EXPECT_FALSE(parse_sizes("0:8", err));
}

// 1:2^63 doubled past 2^63 to 0 and looped forever; -1 and 16G*2^30 wrapped.
TEST(Sizes, ValuesThatWouldWrapAreErrorsNamingThem) {
  std::string err;
  EXPECT_FALSE(parse_sizes("1:9223372036854775808", err));
  EXPECT_NE(err.find("'9223372036854775808' is larger than"), std::string::npos) << err;
  EXPECT_FALSE(parse_sizes("-1", err));
  EXPECT_NE(err.find("'-1'"), std::string::npos) << err;
  EXPECT_FALSE(parse_sizes("8,+8", err));
  EXPECT_NE(err.find("'+8'"), std::string::npos) << err;
  EXPECT_FALSE(parse_sizes("17179869184G", err));
  EXPECT_NE(err.find("'17179869184G' is larger than"), std::string::npos) << err;
  EXPECT_FALSE(parse_sizes("99999999999999999999999", err));
  EXPECT_NE(err.find("is larger than"), std::string::npos) << err;
}

TEST(Sizes, TheLargestRangeEndsAtTwoToTheSixtyTwo) {
  std::string err;
  auto s = parse_sizes("1:9223372036854775807", err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->size(), 63u);
  EXPECT_EQ(s->back(), 1ull << 62);
  EXPECT_TRUE(parse_sizes("8589934591G", err)) << err;  // (2^63-1) / 2^30, rounded down
  EXPECT_FALSE(parse_sizes("8589934592G", err));        // 2^63
}

TEST(Sizes, AmbiguousFormsAreErrors) {
  std::string err;
  EXPECT_FALSE(parse_sizes("1,2,", err));
  EXPECT_NE(err.find("empty entry"), std::string::npos) << err;
  EXPECT_FALSE(parse_sizes(",1", err));
  EXPECT_FALSE(parse_sizes("1,,2", err));
  EXPECT_FALSE(parse_sizes("3:100", err));
  EXPECT_NE(err.find("MIN 3 is not a power of two"), std::string::npos) << err;
  auto s = parse_sizes("4:100", err);  // MAX need not be one: it bounds the sweep
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(*s, (std::vector<std::uint64_t>{4, 8, 16, 32, 64}));
}

// Each size once (two figures of one name cannot be gated), and a missing part is named.
TEST(Sizes, RepeatsAndMissingPartsAreErrors) {
  std::string err;
  EXPECT_FALSE(parse_sizes("8,1K,1024", err));
  EXPECT_EQ(err, "--sizes 8,1K,1024: 1024 bytes is listed twice");
  EXPECT_FALSE(parse_sizes("8,8", err));
  EXPECT_EQ(err, "--sizes 8,8: 8 bytes is listed twice");
  EXPECT_FALSE(parse_sizes("1:", err));
  EXPECT_EQ(err, "--sizes 1:: MAX is missing (MIN:MAX, e.g. 1:4M)");
  EXPECT_FALSE(parse_sizes(":4M", err));
  EXPECT_EQ(err, "--sizes :4M: MIN is missing (MIN:MAX, e.g. 1:4M)");
  EXPECT_FALSE(parse_sizes("", err));
  EXPECT_NE(err.find("--sizes: no size given"), std::string::npos) << err;
}

TEST(Sizes, AListIsBounded) {
  std::string list;
  for (std::size_t i = 1; i <= kMaxSizes; ++i) list += (i > 1 ? "," : "") + std::to_string(i);
  std::string err;
  EXPECT_TRUE(parse_sizes(list, err)) << err;
  EXPECT_FALSE(parse_sizes(list + ",65", err));
  EXPECT_NE(err.find("more than 64 sizes"), std::string::npos) << err;
}

}  // namespace
}  // namespace harness::cli
