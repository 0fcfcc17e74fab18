// Derived datatypes against values worked out by hand from MPI's definitions: sizes, bounds,
// extents, signatures, the flat runs, and the pieces a call's layouts walk in step.
#include "rma/datatype.hpp"

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "core/layout.hpp"

namespace rma {
namespace {

TypeRef basic(Dtype d) {
  return Datatype::basic(d);
}
const TypeRef i32 = basic(Dtype::i32);
const TypeRef f64 = basic(Dtype::f64);

TEST(Datatype, BasicTypeIsDenseOneElement) {
  EXPECT_EQ(i32->size(), 4u);
  EXPECT_EQ(i32->extent(), 4);
  EXPECT_TRUE(i32->dense());
  EXPECT_EQ(i32->signature(), "i32*1");
  EXPECT_EQ(i32->describe(), "i32");
}

TEST(Datatype, VectorBoundsAndRuns) {
  // 3 blocks of 2 i32, stride 5 elements: data at bytes 0-7, 20-27, 40-47.
  auto v = Datatype::vector(3, 2, 5, i32).value();
  EXPECT_EQ(v->size(), 24u);
  EXPECT_EQ(v->lb(), 0);
  EXPECT_EQ(v->extent(), 48);
  EXPECT_EQ(v->true_extent(), 48);
  ASSERT_EQ(v->blocks().size(), 3u);
  EXPECT_EQ(v->blocks()[1].offset, 20);
  EXPECT_EQ(v->blocks()[1].count, 2u);
  EXPECT_EQ(v->signature(), "i32*6");
  EXPECT_FALSE(v->dense());
  EXPECT_EQ(v->describe(), "vector(3, 2, 5, i32)");
}

TEST(Datatype, ContiguousVectorMergesIntoOneRun) {
  auto v = Datatype::vector(4, 2, 2, i32).value();
  ASSERT_EQ(v->blocks().size(), 1u);
  EXPECT_TRUE(v->dense());
}

TEST(Datatype, NegativeStrideHasNegativeLowerBound) {
  // Blocks at 0, -12, -24: lb -24, ub 4.
  auto v = Datatype::hvector(3, 1, -12, i32).value();
  EXPECT_EQ(v->lb(), -24);
  EXPECT_EQ(v->extent(), 28);
  EXPECT_EQ(v->true_lb(), -24);
  EXPECT_EQ(v->blocks()[2].offset, -24);  // type-map order, not address order
}

TEST(Datatype, ResizedKeepsDataChangesBounds) {
  auto r = Datatype::resized(Datatype::vector(2, 1, 4, i32).value(), -4, 8).value();
  EXPECT_EQ(r->lb(), -4);
  EXPECT_EQ(r->extent(), 8);
  EXPECT_EQ(r->true_lb(), 0);
  EXPECT_EQ(r->true_extent(), 20);
}

TEST(Datatype, SubarrayBothOrders) {
  const std::int64_t sizes[] = {4, 5}, sub[] = {2, 3}, starts[] = {1, 2};
  // C: rows 1-2, columns 2-4 of a 4x5 array: elements 7..9 and 12..14.
  auto c = Datatype::subarray(sizes, sub, starts, Order::c, i32).value();
  EXPECT_EQ(c->lb(), 0);
  EXPECT_EQ(c->extent(), 80);
  ASSERT_EQ(c->blocks().size(), 2u);
  EXPECT_EQ(c->blocks()[0].offset, 28);
  EXPECT_EQ(c->blocks()[0].count, 3u);
  EXPECT_EQ(c->blocks()[1].offset, 48);
  // Fortran: first index fastest (column-major 4x5): runs of 2 at (1 + 4j) for j = 2, 3, 4.
  auto f = Datatype::subarray(sizes, sub, starts, Order::fortran, i32).value();
  ASSERT_EQ(f->blocks().size(), 3u);
  EXPECT_EQ(f->blocks()[0].offset, 4 * 9);
  EXPECT_EQ(f->blocks()[0].count, 2u);
  EXPECT_EQ(f->blocks()[2].offset, 4 * 17);
}

TEST(Datatype, StructPadsExtentToAlignment) {
  const std::int64_t bl[] = {1, 1}, d[] = {0, 8};
  const TypeRef types[] = {f64, basic(Dtype::i8)};
  auto s = Datatype::struct_(bl, d, types).value();
  EXPECT_EQ(s->size(), 9u);
  EXPECT_EQ(s->extent(), 16);  // 9 rounded up to 8
  EXPECT_EQ(s->signature(), "f64*1,i8*1");
  EXPECT_FALSE(s->basic_type());
  // With explicit bounds (resized inside) they alone decide: no padding, and the i8 at 8
  // lies past the ub.
  const TypeRef rtypes[] = {Datatype::resized(f64, 0, 8).value(), basic(Dtype::i8)};
  EXPECT_EQ(Datatype::struct_(bl, d, rtypes).value()->extent(), 8);
}

TEST(Datatype, ExplicitBoundsAloneDecideAStructsBounds) {
  // MPI's lb/ub markers: the resized member sets them; the i16 at 4 lies past the ub.
  const std::int64_t bl[] = {1, 1}, d[] = {0, 4};
  const TypeRef types[] = {Datatype::resized(i32, 0, 4).value(), basic(Dtype::i16)};
  auto s = Datatype::struct_(bl, d, types).value();
  EXPECT_EQ(s->lb(), 0);
  EXPECT_EQ(s->extent(), 4);
  EXPECT_EQ(s->true_extent(), 6);
}

TEST(Datatype, PairSizeLeavesOutPadding) {
  // MPI_SHORT_INT: 6 bytes of data in an 8-byte extent; MPI_LONG_INT: 12 in 16.
  auto v = Datatype::vector(10, 3, 5, basic(Dtype::short_int)).value();
  EXPECT_EQ(v->size(), 180u);
  EXPECT_EQ(v->packed_size(), 240u);
  auto l = basic(Dtype::long_int);
  EXPECT_EQ(l->size(), 12u);
  EXPECT_EQ(l->extent(), 16);
  EXPECT_EQ(l->true_extent(), 12);
  EXPECT_EQ(Datatype::contiguous(2, l).value()->true_extent(), 28);
}

TEST(Datatype, IndexedAndBlockVariants) {
  const std::int64_t bl[] = {2, 1}, d[] = {3, 0};
  auto x = Datatype::indexed(bl, d, i32).value();
  EXPECT_EQ(x->blocks()[0].offset, 12);
  EXPECT_EQ(x->blocks()[1].offset, 0);
  EXPECT_EQ(x->lb(), 0);
  EXPECT_EQ(x->extent(), 20);
  const std::int64_t hd[] = {16, 0};
  auto hb = Datatype::hindexed_block(2, hd, i32).value();
  EXPECT_EQ(hb->size(), 16u);
  EXPECT_EQ(hb->extent(), 24);
}

TEST(Datatype, BadArgumentsAreNamed) {
  auto neg = Datatype::vector(-1, 1, 1, i32);
  ASSERT_FALSE(neg);
  EXPECT_EQ(neg.status().error_class(), ErrorClass::count);
  const std::int64_t sizes[] = {4}, sub[] = {3}, starts[] = {2};
  auto out = Datatype::subarray(sizes, sub, starts, Order::c, i32);
  ASSERT_FALSE(out);
  EXPECT_NE(out.status().message().find("outside 0..4"), std::string::npos);
  const std::int64_t bl[] = {1, 1}, d[] = {0};
  EXPECT_FALSE(Datatype::indexed(bl, d, i32));
}

// Arguments at the edges of 64 bits fail with ARG instead of wrapping (INT64_MIN has no
// absolute value), and huge types that are one run are built at once instead of a step per
// block (these hung before).
TEST(Datatype, ExtremeArgumentsFailAndHugeRunsBuildAtOnce) {
  const TypeRef u8 = Datatype::basic(Dtype::u8);
  const auto fails = [](const Result<TypeRef>& r) {
    return !r && r.status().error_class() == ErrorClass::arg;
  };
  const std::int64_t one[] = {1}, min[] = {INT64_MIN};
  EXPECT_TRUE(fails(Datatype::hindexed(one, min, u8)));
  EXPECT_TRUE(fails(Datatype::vector(2, 1, INT64_MIN, u8)));
  EXPECT_TRUE(fails(Datatype::vector(2, 1, -(std::int64_t{1} << 46), Datatype::basic(Dtype::f64))));
  EXPECT_TRUE(fails(Datatype::hvector(3, 1, std::int64_t{1} << 62, u8)));
  EXPECT_TRUE(fails(Datatype::resized(u8, INT64_MIN, 1)));
  EXPECT_TRUE(fails(Datatype::resized(u8, std::int64_t{1} << 47, std::int64_t{1} << 47)));
  const std::int64_t sizes[] = {INT64_MAX}, sub[] = {2}, start[] = {INT64_MAX};
  EXPECT_FALSE(Datatype::subarray(sizes, sub, start, Order::c, u8));
  // Bounds that nesting pushes past 2^48.
  const std::int64_t far[] = {std::int64_t{1} << 47};
  const TypeRef u8s[] = {u8};
  auto once = Datatype::struct_(one, far, u8s);
  ASSERT_TRUE(once);
  const TypeRef once_t[] = {once.value()};
  EXPECT_TRUE(fails(Datatype::struct_(one, far, once_t)));
  // 2^17 overlapping copies of 2^47 bytes: 2^64 bytes, which wrapped to 0.
  auto big = Datatype::contiguous(std::int64_t{1} << 47, u8);
  ASSERT_TRUE(big);
  auto narrow = Datatype::resized(big.value(), 0, 1);
  ASSERT_TRUE(narrow);
  EXPECT_TRUE(fails(Datatype::contiguous(std::int64_t{1} << 17, narrow.value())));
  // One run of 2^40 bytes, as an hvector and as a 3-d subarray taken whole.
  auto row = Datatype::hvector(std::int64_t{1} << 40, 1, 1, u8);
  ASSERT_TRUE(row);
  EXPECT_EQ(row.value()->blocks().size(), 1u);
  EXPECT_EQ(row.value()->packed_size(), std::uint64_t{1} << 40);
  const std::int64_t cube[] = {1 << 14, 1 << 13, 1 << 13}, zero[] = {0, 0, 0};
  for (const Order o : {Order::c, Order::fortran}) {
    auto whole = Datatype::subarray(cube, cube, zero, o, u8);
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole.value()->blocks().size(), 1u);
    EXPECT_EQ(whole.value()->packed_size(), std::uint64_t{1} << 40);
  }
  // Nothing in each block: an empty type, however many blocks.
  auto none = Datatype::hvector(std::int64_t{1} << 40, 0, 8, u8);
  ASSERT_TRUE(none);
  EXPECT_EQ(none.value()->packed_size(), 0u);
  EXPECT_TRUE(Datatype::hvector(0, std::int64_t{1} << 49, std::int64_t{1} << 49, u8));
  // Copies that are one run, or nothing, whatever the old type's bounds: built at once.
  const std::int64_t one_at[] = {1};
  const TypeRef olds[] = {Datatype::hindexed(one, one_at, u8).value(),
                          Datatype::resized(u8, -1, 1).value(),
                          Datatype::contiguous(0, u8).value()};
  for (const TypeRef& old : olds) {
    auto many = Datatype::contiguous(std::int64_t{1} << 27, old);
    ASSERT_TRUE(many) << old->describe() << ": " << many.status().message();
    EXPECT_LE(many.value()->blocks().size(), 1u);
  }
}

void expect_same_map(const TypeRef& a, const TypeRef& b) {
  ASSERT_EQ(a->blocks().size(), b->blocks().size()) << a->describe();
  for (std::size_t i = 0; i < a->blocks().size(); ++i) {
    EXPECT_EQ(a->blocks()[i].offset, b->blocks()[i].offset);
    EXPECT_EQ(a->blocks()[i].count, b->blocks()[i].count);
    EXPECT_EQ(a->blocks()[i].dtype, b->blocks()[i].dtype);
  }
  EXPECT_EQ(a->lb(), b->lb()) << a->describe();
  EXPECT_EQ(a->extent(), b->extent()) << a->describe();
}

TEST(Datatype, DescriptionRoundTripsEveryConstructor) {
  const std::int64_t bl[] = {2, 1}, d[] = {3, -1}, hd[] = {24, 0};
  const std::int64_t sizes[] = {4, 5, 3}, sub[] = {2, 3, 1}, starts[] = {1, 2, 2};
  const TypeRef kinds[] = {Datatype::basic(Dtype::u16), f64};
  const TypeRef types[] = {
      Datatype::contiguous(3, i32).value(),
      Datatype::vector(5, 2, -3, f64).value(),
      Datatype::hvector(2, 1, 40, Datatype::vector(3, 1, 2, i32).value()).value(),
      Datatype::indexed(bl, d, i32).value(),
      Datatype::hindexed(bl, hd, f64).value(),
      Datatype::indexed_block(2, d, i32).value(),
      Datatype::hindexed_block(1, hd, i32).value(),
      Datatype::subarray(sizes, sub, starts, Order::fortran, i32).value(),
      Datatype::struct_(bl, hd, kinds).value(),
      Datatype::resized(Datatype::vector(2, 1, 3, i32).value(), -8, 4).value(),
  };
  for (const TypeRef& t : types) {
    const auto bytes = t->encode();
    EXPECT_EQ(bytes.size(), t->description_bytes()) << t->describe();
    auto back = Datatype::decode(bytes);
    ASSERT_TRUE(back) << t->describe() << ": " << back.status().message();
    expect_same_map(t, back.value());
  }
}

TEST(Datatype, MalformedDescriptionIsAnError) {
  auto bytes = Datatype::vector(5, 2, 3, f64).value()->encode();
  EXPECT_FALSE(Datatype::decode(std::span(bytes).first(bytes.size() - 1)));
  bytes[0] = std::byte{200};
  EXPECT_FALSE(Datatype::decode(bytes));
  bytes = Datatype::vector(5, 2, 3, f64).value()->encode();
  bytes.push_back(std::byte{0});
  EXPECT_FALSE(Datatype::decode(bytes));
}

TEST(Layout, SignatureMatchAcrossDifferentShapes) {
  Layout a{6, i32};
  Layout b{1, Datatype::vector(3, 2, 5, i32).value()};
  Layout c{1, Datatype::vector(3, 2, 5, f64).value()};
  EXPECT_TRUE(same_signature(a, b));
  EXPECT_FALSE(same_signature(a, c));
  EXPECT_EQ(b.signature(), "i32*6");
}

// Compared one instance each, whatever the counts: (i32, f32) x 4 and (i32, f32, i32, f32)
// x 2 match; (f32, i32) x 4, and (i32, f32, i32) x 2 against (i32, f32) x 3, do not.
TEST(Layout, SignaturesOfManyInstancesMatchWithoutExpanding) {
  const std::int64_t ones[] = {1, 1}, at[] = {0, 4}, four[] = {1, 1, 1, 1}, at4[] = {0, 4, 8, 12},
                     three[] = {1, 1, 1}, at3[] = {0, 4, 8};
  const TypeRef f32 = basic(Dtype::f32);
  const TypeRef if_[] = {i32, f32}, fi[] = {f32, i32}, ifif[] = {i32, f32, i32, f32},
                ifi[] = {i32, f32, i32};
  const TypeRef p = Datatype::struct_(ones, at, if_).value();
  const TypeRef q = Datatype::struct_(ones, at, fi).value();
  const TypeRef pp = Datatype::struct_(four, at4, ifif).value();
  const TypeRef t3 = Datatype::struct_(three, at3, ifi).value();
  EXPECT_TRUE(same_signature(Layout{4, p}, Layout{2, pp}));
  EXPECT_FALSE(same_signature(Layout{4, p}, Layout{4, q}));
  EXPECT_FALSE(same_signature(Layout{3, p}, Layout{2, t3})) << "6 elements each, other order";
  const std::uint64_t huge = std::uint64_t{1} << 44;
  EXPECT_TRUE(same_signature(Layout{2 * huge, p}, Layout{huge, pp}));
  EXPECT_EQ((Layout{huge, p}.signature()), "17592186044416 x (i32*1,f32*1)");
  EXPECT_EQ((Layout{3, i32}.signature()), "i32*3");
}

TEST(Layout, CountsPastTheLimitsAreOutOfThem) {
  const TypeRef u64 = Datatype::basic(Dtype::u64);
  auto vec = Datatype::vector(2, 1, 4, u64);  // 16 bytes of data over an extent of 40
  auto sparse = Datatype::resized(u64, 0, std::int64_t{1} << 40);
  auto empty = Datatype::contiguous(0, u64);
  ASSERT_TRUE(vec && sparse && empty);
  ASSERT_EQ(vec.value()->extent(), 40);
  const std::uint64_t limit = std::uint64_t{1} << 48;
  EXPECT_TRUE((Layout{0, u64}.in_limits()));
  EXPECT_TRUE((Layout{limit / 8 - 1, u64}.in_limits()));
  EXPECT_FALSE((Layout{limit / 8, u64}.in_limits())) << "2^48 bytes of data";
  EXPECT_TRUE((Layout{(limit - 1) / 40 + 1, vec.value()}.in_limits()));
  EXPECT_FALSE((Layout{(limit - 1) / 40 + 2, vec.value()}.in_limits()))
      << "the extents' distance counts, not only the data";
  EXPECT_TRUE((Layout{1, sparse.value()}.in_limits())) << "one instance adds no distance";
  EXPECT_TRUE((Layout{256, sparse.value()}.in_limits()));
  EXPECT_FALSE((Layout{257, sparse.value()}.in_limits()));
  EXPECT_TRUE((Layout{SIZE_MAX, empty.value()}.in_limits())) << "nothing to wrap";
  EXPECT_FALSE((Layout{SIZE_MAX / 8 + 2, u64}.in_limits())) << "wraps to 8 bytes";
  EXPECT_FALSE((Layout{SIZE_MAX, u64}.in_limits()));
}

TEST(Layout, InstancesOnTheSameBytesOverlapWithoutAWalk) {
  const TypeRef still = Datatype::resized(i32, 0, 0).value();
  EXPECT_EQ(overlaps(Layout{std::uint64_t{1} << 47, still}), Overlap::some);
  EXPECT_EQ(overlaps(Layout{1, still}), Overlap::none);
}

// Instances that interleave are checked distance by distance, not instance by instance: the
// work does not grow with the count (2^40 instances walked before, a hang).
TEST(Layout, InterleavedInstancesAreCheckedByDistance) {
  const TypeRef u8 = basic(Dtype::u8);
  auto pair = Datatype::resized(Datatype::contiguous(2, u8).value(), 0, 1);  // 2 bytes every 1
  ASSERT_TRUE(pair);
  EXPECT_EQ(overlaps(Layout{std::uint64_t{1} << 40, pair.value()}), Overlap::some);
  EXPECT_EQ(overlaps(Layout{1, pair.value()}), Overlap::none);
  // Bytes 0 and 5 every byte: instance 5 meets instance 0, no nearer one does.
  const std::int64_t ones[] = {1, 1}, at[] = {0, 5};
  auto gap = Datatype::resized(Datatype::hindexed(ones, at, u8).value(), 0, 1);
  ASSERT_TRUE(gap);
  EXPECT_EQ(overlaps(Layout{5, gap.value()}), Overlap::none);
  EXPECT_EQ(overlaps(Layout{6, gap.value()}), Overlap::some);
  EXPECT_EQ(overlaps(Layout{std::uint64_t{1} << 40, gap.value()}), Overlap::some);
  // Bytes 0 and 2^40 every byte: 2^40 instances never meet, too far to check.
  const std::int64_t far[] = {0, std::int64_t{1} << 40};
  auto wide = Datatype::resized(Datatype::hindexed(ones, far, u8).value(), 0, 1);
  ASSERT_TRUE(wide);
  EXPECT_EQ(overlaps(Layout{std::uint64_t{1} << 39, wide.value()}), Overlap::unknown);
  EXPECT_EQ(overlaps(Layout{3, wide.value()}), Overlap::none);
  // No copy writes a long_int's 4 bytes of tail padding, so another instance's data may lie
  // there (MPI counts data bytes only): instances 12 bytes apart do not meet, 8 apart do.
  const TypeRef long_int = basic(Dtype::long_int);
  for (const std::int64_t step : {12, -12, 8, -8}) {
    auto packed = Datatype::resized(long_int, 0, step);
    ASSERT_TRUE(packed);
    EXPECT_EQ(overlaps(Layout{3, packed.value()}), step % 12 ? Overlap::some : Overlap::none)
        << step;
  }
  // Nor within one instance: an i32 in a long_int's tail padding, or in its index.
  const std::int64_t two[] = {1, 1};
  const TypeRef members[] = {long_int, i32};
  for (const std::int64_t i32_at : {12, 8}) {
    const std::int64_t offsets[] = {0, i32_at};
    auto s = Datatype::struct_(two, offsets, members);
    ASSERT_TRUE(s);
    EXPECT_EQ(s.value()->overlaps_itself(), i32_at != 12) << i32_at;
  }
  // The range check still counts the padding (docs/datatypes.md).
  EXPECT_EQ((Layout{1, long_int}.data_hi()), 16);
}

TEST(Layout, DataRangeAndOverlap) {
  Layout v{2, Datatype::vector(2, 1, 3, i32).value()};  // extent 16: data 0,12,16,28
  EXPECT_EQ(v.data_lo(), 0);
  EXPECT_EQ(v.data_hi(), 32);
  EXPECT_EQ(overlaps(v), Overlap::none);
  // Resized to 4 bytes: instance i at 4i, data at 4i and 4i+12: instance 3 meets instance 0.
  Layout r{4, Datatype::resized(Datatype::vector(2, 1, 3, i32).value(), 0, 4).value()};
  EXPECT_EQ(overlaps(r), Overlap::some);
  Layout r3{3, r.type};  // 0,12 / 4,16 / 8,20: interleaved, disjoint
  EXPECT_EQ(overlaps(r3), Overlap::none);
}

std::vector<core::Piece> pieces(std::vector<const Layout*> sides) {
  std::vector<core::Piece> out;
  (void)core::for_each_piece(std::span<const Layout* const>(sides), [&](const core::Piece& p) {
    out.push_back(p);
    return Status::ok();
  });
  return out;
}

TEST(Layout, PiecesFollowBothSides) {
  Layout o{6, i32};                                     // contiguous
  Layout t{1, Datatype::vector(3, 2, 5, i32).value()};  // 3 runs of 2
  auto p = pieces({&o, &t});
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[1].at[0], 8);
  EXPECT_EQ(p[1].at[1], 20);
  EXPECT_EQ(p[1].count, 2u);
}

TEST(Layout, ContiguousOnBothSidesIsOnePiece) {
  Layout o{4, Datatype::contiguous(2, i32).value()};
  Layout t{8, i32};
  auto p = pieces({&o, &t});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].count, 8u);
}

TEST(Layout, RunsOfAStreamRangeStartMidRun) {
  // vector(3, 2, 5, i32), 2 instances (extent 48): stream bytes 0-7 at 0, 8-15 at 20,
  // 16-23 at 40, then 24-31 at 48, ...  Bytes 10..30 start inside the second run.
  Layout l{2, Datatype::vector(3, 2, 5, i32).value()};
  std::vector<std::array<std::int64_t, 3>> got;
  core::for_each_run(
      l, 10, 20, core::RunBytes::data, [&](std::int64_t at, std::uint64_t pos, std::uint64_t n) {
        got.push_back({at, static_cast<std::int64_t>(pos), static_cast<std::int64_t>(n)});
      });
  const std::vector<std::array<std::int64_t, 3>> want = {{22, 10, 6}, {40, 16, 8}, {48, 24, 6}};
  EXPECT_EQ(got, want);
}

// Runs as a write copies them leave out a pair's padding; as a reduction takes them, whole.
TEST(Layout, PairRunsLeaveOutThePaddingWhenData) {
  // vector(2, 2, 3, short_int): elements at 0, 8 and 24, 32 (extent 8, the stream 8 a pair).
  Layout l{1, Datatype::vector(2, 2, 3, Datatype::basic(Dtype::short_int)).value()};
  using Run = std::array<std::int64_t, 3>;
  std::vector<Run> data, whole;
  auto into = [](std::vector<Run>& v) {
    return [&v](std::int64_t at, std::uint64_t pos, std::uint64_t n) {
      v.push_back({at, static_cast<std::int64_t>(pos), static_cast<std::int64_t>(n)});
    };
  };
  core::for_each_run(l, 3, 26, core::RunBytes::data, into(data));  // stream bytes 3..28
  core::for_each_run(l, 3, 26, core::RunBytes::whole, into(whole));
  const std::vector<Run> want_data = {{4, 4, 4},   {8, 8, 2},   {12, 12, 4}, {24, 16, 2},
                                      {28, 20, 4}, {32, 24, 2}, {36, 28, 1}};
  const std::vector<Run> want_whole = {{3, 3, 13}, {24, 16, 13}};
  EXPECT_EQ(data, want_data);
  EXPECT_EQ(whole, want_whole);
}

// copy_into and copy_out write the bytes that a layout's runs walked with `RunBytes::data`
// and copied piece by piece write: every fragment [from, from + len) of the stream, on layouts of
// padded pairs (short_int, long_int) and of a struct that mixes a pair with a scalar.
TEST(Layout, CopyIntoAndOutWriteWhatDataRunsWrite) {
  const std::int64_t bl[] = {2, 1}, d[] = {0, 40};
  const TypeRef mixed[] = {Datatype::basic(Dtype::long_int), Datatype::basic(Dtype::i32)};
  const std::vector<Layout> layouts = {
      {2, Datatype::vector(2, 2, 3, Datatype::basic(Dtype::short_int)).value()},
      {3, Datatype::vector(2, 1, 2, Datatype::basic(Dtype::long_int)).value()},
      {2, Datatype::struct_(bl, d, mixed).value()},
  };
  for (const Layout& l : layouts) {
    const std::uint64_t bytes = l.bytes();
    const auto span = static_cast<std::size_t>(l.data_hi());
    std::vector<std::byte> stream(bytes);
    for (std::size_t i = 0; i < stream.size(); ++i) stream[i] = static_cast<std::byte>(i + 1);
    for (std::uint64_t from = 0; from < bytes; ++from)
      for (std::uint64_t len = 1; from + len <= bytes; ++len) {
        std::vector<std::byte> want(span, std::byte{0xaa}), got = want;
        core::for_each_run(l, from, len, core::RunBytes::data,
                           [&](std::int64_t at, std::uint64_t pos, std::uint64_t n) {
                             std::memcpy(want.data() + at, stream.data() + pos, n);
                           });
        core::copy_into(l, from, len, stream.data() + from, got.data());
        ASSERT_EQ(got, want) << l.describe() << " into, from " << from << " len " << len;
        std::vector<std::byte> out_want(bytes, std::byte{0xbb}), out_got = out_want;
        core::for_each_run(l, from, len, core::RunBytes::data,
                           [&](std::int64_t at, std::uint64_t pos, std::uint64_t n) {
                             std::memcpy(out_want.data() + pos, want.data() + at, n);
                           });
        core::copy_out(l, from, len, want.data(), out_got.data() + from);
        ASSERT_EQ(out_got, out_want) << l.describe() << " out, from " << from << " len " << len;
      }
  }
}

// An op to a rank's own window may copy between overlapping stretches of it.
TEST(Layout, CopyDataBetweenOverlappingBuffersCopiesEveryElementOnce) {
  std::vector<std::byte> mem(5 * 8);
  for (std::size_t i = 0; i < mem.size(); ++i) mem[i] = static_cast<std::byte>(i);
  const std::vector<std::byte> before = mem;
  core::copy_data(mem.data() + 8, mem.data(), 3 * 8, Dtype::short_int);  // 3 elements up one
  for (std::size_t i = 8; i < 4 * 8; ++i) {
    const std::size_t k = i % 8;
    const bool data = k < 2 || k >= 4;
    EXPECT_EQ(mem[i], data ? before[i - 8] : before[i]) << "byte " << i;
  }
}

TEST(Layout, CopyDataKeepsEveryPairsPadding) {
  for (Dtype t : {Dtype::short_int, Dtype::long_int, Dtype::double_int, Dtype::int2}) {
    const std::size_t es = size_of(t), n = 3 * es;
    std::vector<std::byte> src(n, std::byte{1}), dst(n, std::byte{0xaa});
    // From byte 1 on, as a rendezvous fragment that starts inside an element copies.
    core::copy_data(dst.data() + 1, src.data() + 1, n - 1, t, 1);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = i % es;
      const bool data = i >= 1 && (t == Dtype::short_int ? (k < 2 || k >= 4) : k < data_size(t));
      EXPECT_EQ(dst[i], data ? std::byte{1} : std::byte{0xaa}) << to_string(t) << " byte " << i;
    }
  }
}

// Whole elements go by copies of fixed sizes, parts at either end stretch by stretch: every
// split of a stream, into separate buffers and shifted within one buffer both ways, copies
// the data bytes as they were before the copy and nothing else.
TEST(Layout, CopyDataMatchesByteByByteAtEverySplitAndShift) {
  for (Dtype t : {Dtype::short_int, Dtype::long_int, Dtype::double_int}) {
    const std::size_t es = size_of(t), len = 6 * es;
    auto is_data = [&](std::size_t pos) {
      const std::size_t k = pos % es;
      return t == Dtype::short_int ? (k < 2 || k >= 4) : k < data_size(t);
    };
    for (std::size_t at = 0; at < 2 * es; ++at)
      for (std::size_t n = 0; n <= 4 * es; ++n) {
        const auto e = static_cast<std::ptrdiff_t>(es);
        for (std::ptrdiff_t shift :
             {std::ptrdiff_t{0}, -e, std::ptrdiff_t{-3}, e, std::ptrdiff_t{5}}) {
          // One buffer: the source at `base`, the destination `shift` bytes on (0: apart).
          const std::size_t base = 2 * es;
          std::vector<std::byte> mem(base + len + 2 * es), other(mem.size(), std::byte{0xee});
          for (std::size_t i = 0; i < mem.size(); ++i) mem[i] = static_cast<std::byte>(i * 7);
          const std::vector<std::byte> before = mem;
          std::vector<std::byte>& out = shift == 0 ? other : mem;
          const std::size_t to = base + static_cast<std::size_t>(shift);
          const std::vector<std::byte> out_before = out;
          core::copy_data(out.data() + to, mem.data() + base, n, t, at);
          for (std::size_t i = 0; i < out.size(); ++i) {
            const bool copied = i >= to && i < to + n && is_data(at + (i - to));
            const std::byte want = copied ? before[base + (i - to)] : out_before[i];
            ASSERT_EQ(out[i], want) << to_string(t) << " at " << at << " n " << n << " shift "
                                    << shift << " byte " << i;
          }
        }
      }
  }
}

TEST(Layout, PiecesSplitAtBasicTypeChanges) {
  const std::int64_t bl[] = {1, 2}, d[] = {0, 8};
  const TypeRef types[] = {f64, i32};
  Layout s{2, Datatype::struct_(bl, d, types).value()};  // extent 16
  auto p = pieces({&s, &s});
  ASSERT_EQ(p.size(), 4u);  // f64 | i32 i32 | f64 | i32 i32: no run crosses a type change
  EXPECT_EQ(p[0].dtype, Dtype::f64);
}

}  // namespace
}  // namespace rma
