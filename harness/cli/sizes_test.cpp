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

}  // namespace
}  // namespace harness::cli
