// Tests of fetch_reduce (core/reduce.hpp): old values returned and new ones stored, on every
// dtype, unaligned and aliased buffers. Expected values are literals worked out by hand; the
// one test that compares fetch_reduce with reduce says so in its name.
#include "core/reduce.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/reduce_testing.hpp"

namespace rma::core {
namespace {

TEST(FetchReduce, ReturnsOldValuesAndUpdatesTheTarget) {
  struct Case {
    Op op;
    std::int32_t target[3];
    std::int32_t origin[3];
    std::int32_t expect[3];
  };
  const Case cases[] = {
      {Op::sum, {1, -5, 2147483647}, {2, 3, 1}, {3, -2, kI32Min}},
      {Op::prod, {65536, -7, 3}, {65536, 6, -1}, {0, -42, -3}},
      {Op::min, {-3, 10, 0}, {7, -20, 0}, {-3, -20, 0}},
      {Op::max, {-3, 10, -1}, {7, -20, -2}, {7, 10, -1}},
      {Op::band, {0x0F0F0F0F, -1, 12}, {0x00FF00FF, 0x1234, 10}, {0x000F000F, 0x1234, 8}},
      {Op::bor, {0x0F0F0F0F, -16, 12}, {0x00FF00FF, 3, 10}, {0x0FFF0FFF, -13, 14}},
      {Op::bxor, {0x0F0F0F0F, -1, 12}, {0x00FF00FF, 0, 10}, {0x0FF00FF0, -1, 6}},
      {Op::land, {5, 2, 0}, {0, 4, 0}, {0, 1, 0}},
      {Op::lor, {0, 0, -9}, {7, 0, 0}, {1, 0, 1}},
      {Op::lxor, {3, 0, 0}, {4, 9, 0}, {0, 1, 0}},
      {Op::replace, {1, 2, 3}, {-4, 0, 2147483647}, {-4, 0, 2147483647}},
      {Op::no_op, {1, -2, 3}, {9, 9, 9}, {1, -2, 3}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(to_string(c.op));
    std::int32_t target[3] = {c.target[0], c.target[1], c.target[2]};
    std::int32_t result[3] = {-99, -99, -99};
    const Status s = fetch_reduce(c.op, Dtype::i32, target, c.origin, result, 3);
    ASSERT_TRUE(s.is_ok()) << s.to_string();
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(result[i], c.target[i]) << i;
      EXPECT_EQ(target[i], c.expect[i]) << i;
    }
  }
}

TEST(FetchReduce, EveryDtypeReturnsOldAndStoresNew) {
  {
    std::int8_t t = 100, o = 100, r = 0;
    ASSERT_TRUE(fetch_reduce(Op::sum, Dtype::i8, &t, &o, &r, 1).is_ok());
    EXPECT_EQ(r, 100);
    EXPECT_EQ(t, -56);
  }
  {
    std::int16_t t = -30000, o = 20000, r = 0;
    ASSERT_TRUE(fetch_reduce(Op::max, Dtype::i16, &t, &o, &r, 1).is_ok());
    EXPECT_EQ(r, -30000);
    EXPECT_EQ(t, 20000);
  }
  {
    std::int64_t t = 4294967297LL, o = 4294967297LL, r = 0;
    ASSERT_TRUE(fetch_reduce(Op::prod, Dtype::i64, &t, &o, &r, 1).is_ok());
    EXPECT_EQ(r, 4294967297LL);
    EXPECT_EQ(t, 8589934593LL);
  }
  {
    std::uint8_t t = 0xCC, o = 0xAA, r = 0;
    ASSERT_TRUE(fetch_reduce(Op::bor, Dtype::u8, &t, &o, &r, 1).is_ok());
    EXPECT_EQ(r, 0xCC);
    EXPECT_EQ(t, 0xEE);
  }
  {
    std::uint16_t t = 65535, o = 2, r = 0;
    ASSERT_TRUE(fetch_reduce(Op::sum, Dtype::u16, &t, &o, &r, 1).is_ok());
    EXPECT_EQ(r, 65535);
    EXPECT_EQ(t, 1);
  }
  {
    std::uint32_t t = 4000000000u, o = 5u, r = 0u;
    ASSERT_TRUE(fetch_reduce(Op::min, Dtype::u32, &t, &o, &r, 1).is_ok());
    EXPECT_EQ(r, 4000000000u);
    EXPECT_EQ(t, 5u);
  }
  {
    std::uint64_t t = 9223372036854775808ULL, o = 0u, r = 0u;
    ASSERT_TRUE(fetch_reduce(Op::lxor, Dtype::u64, &t, &o, &r, 1).is_ok());
    EXPECT_EQ(r, 9223372036854775808ULL);
    EXPECT_EQ(t, 1u);
  }
  {
    float t = 1.5f, o = 2.25f, r = 0.0f;
    ASSERT_TRUE(fetch_reduce(Op::sum, Dtype::f32, &t, &o, &r, 1).is_ok());
    EXPECT_EQ(r, 1.5f);
    EXPECT_EQ(t, 3.75f);
  }
  {
    double t = 0.5, o = 0.25, r = 0.0;
    ASSERT_TRUE(fetch_reduce(Op::replace, Dtype::f64, &t, &o, &r, 1).is_ok());
    EXPECT_EQ(r, 0.5);
    EXPECT_EQ(t, 0.25);
  }
}

TEST(FetchReduce, NoOpWithNullOriginIsAnAtomicRead) {
  std::uint64_t t[2] = {kU64Max, 42u};
  std::uint64_t r[2] = {0u, 0u};
  ASSERT_TRUE(fetch_reduce(Op::no_op, Dtype::u64, t, nullptr, r, 2).is_ok());
  EXPECT_EQ(r[0], kU64Max);
  EXPECT_EQ(r[1], 42u);
  EXPECT_EQ(t[0], kU64Max);
  EXPECT_EQ(t[1], 42u);
}

TEST(FetchReduce, ThousandUnalignedElements) {
  constexpr std::size_t n = 1000;
  std::vector<std::byte> tb(n * 4 + 1), ob(n * 4 + 1), rb(n * 4 + 1);
  std::byte* t = tb.data() + 1;
  std::byte* o = ob.data() + 1;
  std::byte* r = rb.data() + 1;
  for (std::size_t i = 0; i < n; ++i) {
    put_at<std::int32_t>(t, i, static_cast<std::int32_t>(i));
    put_at<std::int32_t>(o, i, -2 * static_cast<std::int32_t>(i));
  }
  ASSERT_TRUE(fetch_reduce(Op::sum, Dtype::i32, t, o, r, n).is_ok());
  for (std::size_t i = 0; i < n; ++i) {
    const auto v = static_cast<std::int32_t>(i);
    ASSERT_EQ(get_at<std::int32_t>(r, i), v) << i;
    ASSERT_EQ(get_at<std::int32_t>(t, i), -v) << i;  // i + (-2i)
  }
}

// Overlapping buffers take the element-by-element path (the tests above, with disjoint
// buffers, take the blocked one). 1000 elements so that a blocked path would be used if the
// overlap went unnoticed.
TEST(FetchReduce, ResultMayBeTheOriginBuffer) {
  constexpr std::int64_t n = 1000;
  std::vector<std::int64_t> t(n), buf(n, 5);
  for (std::int64_t i = 0; i < n; ++i) t[i] = 100 + i;
  ASSERT_TRUE(fetch_reduce(Op::sum, Dtype::i64, t.data(), buf.data(), buf.data(), n).is_ok());
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(t[i], 105 + i) << i;
    ASSERT_EQ(buf[i], 100 + i) << i;
  }
}

// Not a check of values (the tests above do that) but of the two entry points against each
// other: for every valid pair, fetch_reduce's target equals reduce's and its result is the
// old target.
TEST(FetchReduce, AgreesWithReduceForEveryValidPair) {
  constexpr std::size_t n = 77;  // bytes per element vary; 77 * 8 bytes covers them all
  for (Dtype d : kAllDtypes) {
    for (Op op : kAllOps) {
      if (!op_valid_for(op, d)) continue;
      SCOPED_TRACE(std::string(to_string(op)) + " " + std::string(to_string(d)));
      std::vector<std::byte> a(n * 8), b(n * 8), orig(n * 8), res(n * 8);
      for (std::size_t i = 0; i < a.size(); ++i) {
        // Byte patterns that give small, large, negative and zero elements; float bytes
        // are chosen to avoid NaN (exponent bytes never all ones).
        a[i] = static_cast<std::byte>((i * 37 + 11) % 0x7F);
        orig[i] = static_cast<std::byte>((i * 53 + 3) % 0x7F);
      }
      b = a;
      const std::size_t count = n * 8 / size_of(d);
      ASSERT_TRUE(reduce(op, d, a.data(), orig.data(), count).is_ok());
      ASSERT_TRUE(fetch_reduce(op, d, b.data(), orig.data(), res.data(), count).is_ok());
      EXPECT_EQ(a, b);
      std::vector<std::byte> before(n * 8);
      for (std::size_t i = 0; i < before.size(); ++i)
        before[i] = static_cast<std::byte>((i * 37 + 11) % 0x7F);
      EXPECT_EQ(res, before);
    }
  }
}

}  // namespace
}  // namespace rma::core
