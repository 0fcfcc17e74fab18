// footprint_test.cpp — a layout's byte runs (merged, ascending, capped to the covering range)
// and the accumulate rule: same op (or no_op), same basic type, elements lined up.
#include "races/footprint.hpp"

#include <gtest/gtest.h>

namespace harness::races {
namespace {

using rma::Datatype;
using rma::Dtype;

const rma::TypeRef i32 = Datatype::basic(Dtype::i32);

std::vector<std::pair<std::int64_t, std::uint64_t>> pairs(const Runs& r) {
  std::vector<std::pair<std::int64_t, std::uint64_t>> v;
  for (const Run& x : r.runs) v.emplace_back(x.off, x.len);
  return v;
}

TEST(RaceFootprint, AVectorIsItsBlocks) {
  const Runs r = layout_runs({1, Datatype::vector(4, 1, 2, i32).value()});
  EXPECT_TRUE(r.exact);
  const std::vector<std::pair<std::int64_t, std::uint64_t>> want = {
      {0, 4}, {8, 4}, {16, 4}, {24, 4}};
  EXPECT_EQ(pairs(r), want);
}

TEST(RaceFootprint, BlocksThatTouchMerge) {
  EXPECT_EQ(pairs(layout_runs({1, Datatype::vector(4, 2, 2, i32).value()})),
            (std::vector<std::pair<std::int64_t, std::uint64_t>>{{0, 32}}));
  EXPECT_EQ(pairs(layout_runs({3, i32})),
            (std::vector<std::pair<std::int64_t, std::uint64_t>>{{0, 12}}));
  // Pairs: 3 long_int span 44 bytes (MPI's size counts 12 of each 16; the last pair's tail
  // padding is never written).
  EXPECT_EQ(pairs(layout_runs({3, Datatype::basic(Dtype::long_int)})),
            (std::vector<std::pair<std::int64_t, std::uint64_t>>{{0, 44}}));
  // Two instances of a vector whose extent ends where the next one's first block starts.
  EXPECT_EQ(pairs(layout_runs({2, Datatype::vector(2, 1, 2, i32).value()})),
            (std::vector<std::pair<std::int64_t, std::uint64_t>>{{0, 4}, {8, 8}, {20, 4}}));
}

TEST(RaceFootprint, ANegativeStrideGivesAscendingRunsBelowZero) {
  EXPECT_EQ(pairs(layout_runs({1, Datatype::hvector(3, 1, -8, i32).value()})),
            (std::vector<std::pair<std::int64_t, std::uint64_t>>{{-16, 4}, {-8, 4}, {0, 4}}));
}

TEST(RaceFootprint, TooManyRunsBecomeTheCoveringRange) {
  const auto n = static_cast<std::int64_t>(kMaxRuns) + 1;
  const Runs r = layout_runs({1, Datatype::vector(n, 1, 2, i32).value()});
  EXPECT_FALSE(r.exact);
  EXPECT_TRUE(r.grid);  // every element 8 bytes apart from the first
  EXPECT_EQ(pairs(r), (std::vector<std::pair<std::int64_t, std::uint64_t>>{
                          {0, static_cast<std::uint64_t>(8 * n - 4)}}));
  // Blocks 6 bytes apart: the covering range hides where the elements start.
  const Runs off = layout_runs({1, Datatype::hvector(n, 1, 6, i32).value()});
  EXPECT_FALSE(off.exact);
  EXPECT_FALSE(off.grid);
  EXPECT_EQ(
      layout_runs({1, Datatype::vector(static_cast<std::int64_t>(kMaxRuns), 1, 2, i32).value()})
          .runs.size(),
      kMaxRuns);
}

TEST(RaceFootprint, InterleavedRunsShareNothing) {
  const Spans even = {{0, 4}, {8, 12}, {16, 20}}, odd = {{4, 8}, {12, 16}, {20, 24}};
  EXPECT_FALSE(first_shared(even, odd));
  const Spans wide = {{10, 30}};
  const auto s = first_shared(even, wide);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->lo, 10u);
  EXPECT_EQ(s->hi, 12u);
}

TEST(RaceFootprint, AccumulatesNeedOneOpOneTypeAndAlignedElements) {
  const Spans at0 = {{0, 8}}, at4 = {{4, 12}}, at8 = {{8, 16}};
  using rma::Dtype;
  using rma::Op;
  const auto side = [](const Spans& s, Op op, Dtype dt, bool grid = true) {
    return AccumulateSide{&s, op, dt, grid, {}};
  };
  EXPECT_EQ(accumulate_clash(side(at0, Op::sum, Dtype::i64), side(at0, Op::sum, Dtype::i64)), "");
  EXPECT_EQ(accumulate_clash(side(at0, Op::no_op, Dtype::i64), side(at0, Op::max, Dtype::i64)), "");
  // compare_and_swap is a conditional replace.
  AccumulateSide cas = side(at0, Op::replace, Dtype::i64);
  cas.name = "cas";
  EXPECT_EQ(accumulate_clash(cas, side(at0, Op::replace, Dtype::i64)), "");
  EXPECT_NE(accumulate_clash(cas, side(at0, Op::sum, Dtype::i64)).find("(cas, sum)"),
            std::string::npos);
  EXPECT_NE(accumulate_clash(side(at0, Op::sum, Dtype::i64), side(at0, Op::max, Dtype::i64)), "");
  EXPECT_NE(accumulate_clash(side(at0, Op::sum, Dtype::i32), side(at0, Op::sum, Dtype::f32)), "");
  // An i64 at byte 0 and one at byte 4 split each other's elements; i32s there line up.
  EXPECT_NE(accumulate_clash(side(at0, Op::sum, Dtype::i64), side(at4, Op::sum, Dtype::i64)), "");
  EXPECT_EQ(accumulate_clash(side(at0, Op::sum, Dtype::i32), side(at4, Op::sum, Dtype::i32)), "");
  EXPECT_EQ(accumulate_clash(side(at0, Op::sum, Dtype::i64), side(at8, Op::sum, Dtype::i64)), "");
  EXPECT_NE(accumulate_clash(side(at0, Op::sum, Dtype::i32, false), side(at0, Op::sum, Dtype::i32)),
            "");
}

}  // namespace
}  // namespace harness::races
