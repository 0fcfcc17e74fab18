// Tests of reduce (core/reduce.hpp) beyond each op's values (reduce_ops_test.cpp): its
// errors, counts from zero to thousands, unaligned and overlapping buffers. Every expected
// value is a literal worked out by hand, never produced by the kernel under test.
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

TEST(ReduceErrors, BitwiseAndLogicalOpsOnFloatsAreOpErrors) {
  struct Case {
    Op op;
    Dtype dtype;
    const char* message;
  };
  const Case cases[] = {
      {Op::band, Dtype::f32, "band is not defined for f32"},
      {Op::bor, Dtype::f32, "bor is not defined for f32"},
      {Op::bxor, Dtype::f32, "bxor is not defined for f32"},
      {Op::land, Dtype::f32, "land is not defined for f32"},
      {Op::lor, Dtype::f32, "lor is not defined for f32"},
      {Op::lxor, Dtype::f32, "lxor is not defined for f32"},
      {Op::band, Dtype::f64, "band is not defined for f64"},
      {Op::bor, Dtype::f64, "bor is not defined for f64"},
      {Op::bxor, Dtype::f64, "bxor is not defined for f64"},
      {Op::land, Dtype::f64, "land is not defined for f64"},
      {Op::lor, Dtype::f64, "lor is not defined for f64"},
      {Op::lxor, Dtype::f64, "lxor is not defined for f64"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    double target = 1.5;  // big enough for either type; only its bytes are compared
    const double origin = 2.5;
    double result = 0.0;
    const Status s = reduce(c.op, c.dtype, &target, &origin, 1);
    EXPECT_EQ(s.error_class(), ErrorClass::op);
    EXPECT_EQ(s.message(), c.message);
    EXPECT_EQ(target, 1.5);
    const Status f = fetch_reduce(c.op, c.dtype, &target, &origin, &result, 1);
    EXPECT_EQ(f.error_class(), ErrorClass::op);
    EXPECT_EQ(f.message(), c.message);
    EXPECT_EQ(target, 1.5);
    EXPECT_EQ(result, 0.0);
    // Invalid even when there is nothing to do, as MPI checks the pair, not the data.
    EXPECT_EQ(reduce(c.op, c.dtype, nullptr, nullptr, 0).error_class(), ErrorClass::op);
  }
}

TEST(ReduceErrors, UnknownDtypeIsTypeAndUnknownOpIsOp) {
  std::int64_t t = 1;
  const std::int64_t o = 2;
  std::int64_t r = 0;
  const auto bad_dtype = static_cast<Dtype>(99);
  const auto bad_op = static_cast<Op>(99);
  EXPECT_EQ(reduce(Op::sum, bad_dtype, &t, &o, 1).error_class(), ErrorClass::type);
  EXPECT_EQ(reduce(bad_op, Dtype::i64, &t, &o, 1).error_class(), ErrorClass::op);
  EXPECT_EQ(fetch_reduce(Op::sum, bad_dtype, &t, &o, &r, 1).error_class(), ErrorClass::type);
  EXPECT_EQ(fetch_reduce(bad_op, Dtype::i64, &t, &o, &r, 1).error_class(), ErrorClass::op);
  EXPECT_EQ(compare_and_swap(bad_dtype, &t, &o, &o, &r).error_class(), ErrorClass::type);
  EXPECT_EQ(t, 1);
  EXPECT_EQ(r, 0);
}

TEST(ReduceErrors, NullBuffersWithElementsAreBufferErrors) {
  std::int32_t t = 1;
  const std::int32_t o = 2;
  std::int32_t r = 0;
  EXPECT_EQ(reduce(Op::sum, Dtype::i32, &t, nullptr, 1).error_class(), ErrorClass::buffer);
  EXPECT_EQ(reduce(Op::sum, Dtype::i32, nullptr, &o, 1).error_class(), ErrorClass::buffer);
  EXPECT_EQ(fetch_reduce(Op::sum, Dtype::i32, &t, nullptr, &r, 1).error_class(),
            ErrorClass::buffer);
  EXPECT_EQ(fetch_reduce(Op::sum, Dtype::i32, &t, &o, nullptr, 1).error_class(),
            ErrorClass::buffer);
  EXPECT_EQ(compare_and_swap(Dtype::i32, &t, nullptr, &o, &r).error_class(), ErrorClass::buffer);
  EXPECT_EQ(t, 1);
  EXPECT_EQ(r, 0);
}

TEST(Reduce, CountZeroIsANoOp) {
  for (Dtype d : kAllDtypes) {
    for (Op op : kAllOps) {
      if (!op_valid_for(op, d)) continue;
      SCOPED_TRACE(std::string(to_string(op)) + " " + std::string(to_string(d)));
      std::uint64_t target = 0x1122334455667788ULL;
      const std::uint64_t origin = 0x0102030405060708ULL;
      std::uint64_t result = 0xAAAAAAAAAAAAAAAAULL;
      EXPECT_TRUE(reduce(op, d, &target, &origin, 0).is_ok());
      EXPECT_TRUE(fetch_reduce(op, d, &target, &origin, &result, 0).is_ok());
      EXPECT_TRUE(reduce(op, d, nullptr, nullptr, 0).is_ok());
      EXPECT_TRUE(fetch_reduce(op, d, nullptr, nullptr, nullptr, 0).is_ok());
      EXPECT_EQ(target, 0x1122334455667788ULL);
      EXPECT_EQ(result, 0xAAAAAAAAAAAAAAAAULL);
    }
  }
}

TEST(Reduce, ThousandElementsAreAllUpdated) {
  constexpr std::size_t n = 1000;
  std::vector<std::int64_t> t(n), o(n);
  for (std::size_t i = 0; i < n; ++i) {
    t[i] = static_cast<std::int64_t>(i);
    o[i] = 1000000;
  }
  ASSERT_TRUE(reduce(Op::sum, Dtype::i64, t.data(), o.data(), n).is_ok());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(t[i], 1000000 + static_cast<std::int64_t>(i));

  std::vector<std::int8_t> t8(n, 100), o8(n, 100);
  ASSERT_TRUE(reduce(Op::sum, Dtype::i8, t8.data(), o8.data(), n).is_ok());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(t8[i], -56) << i;

  std::vector<std::uint16_t> t16(n, 65535), o16(n, 65535);
  ASSERT_TRUE(reduce(Op::prod, Dtype::u16, t16.data(), o16.data(), n).is_ok());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(t16[i], 1) << i;

  // Alternating signs: max picks the positive side of each pair.
  std::vector<std::int32_t> t32(n), o32(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto v = static_cast<std::int32_t>(i);
    t32[i] = i % 2 ? v : -v;
    o32[i] = i % 2 ? -v : v;
  }
  ASSERT_TRUE(reduce(Op::max, Dtype::i32, t32.data(), o32.data(), n).is_ok());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(t32[i], static_cast<std::int32_t>(i)) << i;

  std::vector<double> tf(n, 0.5), of(n, 0.25);
  ASSERT_TRUE(reduce(Op::sum, Dtype::f64, tf.data(), of.data(), n).is_ok());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(tf[i], 0.75) << i;

  std::vector<std::uint32_t> tb(n, 0xDEADBEEFu), ob(n, 0xFFFF0000u);
  ASSERT_TRUE(reduce(Op::band, Dtype::u32, tb.data(), ob.data(), n).is_ok());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(tb[i], 0xDEAD0000u) << i;

  std::vector<std::uint64_t> tr(n, 1u), orr(n, kU64Max);
  ASSERT_TRUE(reduce(Op::replace, Dtype::u64, tr.data(), orr.data(), n).is_ok());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(tr[i], kU64Max) << i;
}

// Counts around multiples of any plausible block length (whole blocks, then a tail) and an
// element just past the end that must stay untouched.
TEST(Reduce, EveryCountUpTo600TouchesExactlyCountElements) {
  for (std::size_t count = 0; count <= 600; ++count) {
    std::vector<std::int64_t> t(count + 1, 7), o(count + 1, -10);
    ASSERT_TRUE(reduce(Op::sum, Dtype::i64, t.data(), o.data(), count).is_ok());
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(t[i], -3) << count << " " << i;
    ASSERT_EQ(t[count], 7) << count;

    std::vector<std::uint8_t> t8(count + 1, 200), o8(count + 1, 100);
    ASSERT_TRUE(reduce(Op::sum, Dtype::u8, t8.data(), o8.data(), count).is_ok());
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(t8[i], 44) << count << " " << i;
    ASSERT_EQ(t8[count], 200) << count;
  }
}

// Window memory at an odd displacement: every element straddles an alignment boundary.
TEST(Reduce, UnalignedPointersGiveTheSameResults) {
  constexpr std::size_t n = 1000;
  for (std::size_t t_off : {1u, 3u}) {
    for (std::size_t o_off : {0u, 1u, 5u}) {
      SCOPED_TRACE(std::to_string(t_off) + "/" + std::to_string(o_off));
      std::vector<std::byte> tb(n * 8 + 8), ob(n * 8 + 8);
      std::byte* t = tb.data() + t_off;
      std::byte* o = ob.data() + o_off;

      for (std::size_t i = 0; i < n; ++i) {
        put_at<std::int64_t>(t, i, 9223372036854775807LL);
        put_at<std::int64_t>(o, i, static_cast<std::int64_t>(i) + 1);
      }
      ASSERT_TRUE(reduce(Op::sum, Dtype::i64, t, o, n).is_ok());
      // INT64_MAX + (i + 1) wraps to INT64_MIN + i.
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(get_at<std::int64_t>(t, i), kI64Min + static_cast<std::int64_t>(i)) << i;

      for (std::size_t i = 0; i < n; ++i) {
        put_at<double>(t, i, 0.5);
        put_at<double>(o, i, 0.25);
      }
      ASSERT_TRUE(reduce(Op::sum, Dtype::f64, t, o, n).is_ok());
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(get_at<double>(t, i), 0.75) << i;

      for (std::size_t i = 0; i < n; ++i) {
        put_at<std::uint16_t>(t, i, 300);
        put_at<std::uint16_t>(o, i, 300);
      }
      ASSERT_TRUE(reduce(Op::prod, Dtype::u16, t, o, n).is_ok());
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(get_at<std::uint16_t>(t, i), 24464) << i;

      for (std::size_t i = 0; i < n; ++i) {
        put_at<std::int32_t>(t, i, -2000000000);
        put_at<std::int32_t>(o, i, 7);
      }
      ASSERT_TRUE(reduce(Op::min, Dtype::i32, t, o, n).is_ok());
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(get_at<std::int32_t>(t, i), -2000000000) << i;

      for (std::size_t i = 0; i < n; ++i) {
        put_at<float>(t, i, 1.5f);
        put_at<float>(o, i, -4.0f);
      }
      ASSERT_TRUE(reduce(Op::prod, Dtype::f32, t, o, n).is_ok());
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(get_at<float>(t, i), -6.0f) << i;

      for (std::size_t i = 0; i < n; ++i) {
        put_at<std::uint64_t>(t, i, 0xFFFFFFFF00000000ULL);
        put_at<std::uint64_t>(o, i, 0x0123456789ABCDEFULL);
      }
      ASSERT_TRUE(reduce(Op::bxor, Dtype::u64, t, o, n).is_ok());
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(get_at<std::uint64_t>(t, i), 0xFEDCBA9889ABCDEFULL) << i;

      for (std::size_t i = 0; i < n; ++i) {
        put_at<std::int16_t>(t, i, 256);
        put_at<std::int16_t>(o, i, 512);
      }
      ASSERT_TRUE(reduce(Op::land, Dtype::i16, t, o, n).is_ok());
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(get_at<std::int16_t>(t, i), 1) << i;
    }
  }
}

TEST(Reduce, OriginMayBeTheTargetBuffer) {
  constexpr std::int32_t n = 1000;
  std::vector<std::int32_t> t(n);
  for (std::int32_t i = 0; i < n; ++i) t[i] = i - 500;
  ASSERT_TRUE(reduce(Op::sum, Dtype::i32, t.data(), t.data(), n).is_ok());
  for (std::int32_t i = 0; i < n; ++i) ASSERT_EQ(t[i], 2 * (i - 500)) << i;
}

// origin one element before target: in index order each element adds the already updated
// previous one, so all ones become 1, 2, 3, ... A blocked (vectorised) pass would read the
// old values and give 1, 2, 2, 2, ...
TEST(Reduce, PartialOverlapIsElementByElementInIndexOrder) {
  constexpr std::int64_t n = 1000;
  std::vector<std::byte> buf((n + 1) * 8 + 1);
  std::byte* base = buf.data() + 1;  // unaligned as well
  put_at<std::int64_t>(base, 0, 0);
  for (std::int64_t i = 1; i <= n; ++i) put_at<std::int64_t>(base, i, 1);
  ASSERT_TRUE(reduce(Op::sum, Dtype::i64, base + 8, base, n).is_ok());
  EXPECT_EQ(get_at<std::int64_t>(base, 0), 0);
  for (std::int64_t i = 1; i <= n; ++i) ASSERT_EQ(get_at<std::int64_t>(base, i), i) << i;

  // Same for replace: every element copies its updated predecessor, so all become 7.
  put_at<std::int32_t>(base, 0, 7);
  for (std::int64_t i = 1; i <= n; ++i) put_at<std::int32_t>(base, i, static_cast<std::int32_t>(i));
  ASSERT_TRUE(reduce(Op::replace, Dtype::i32, base + 4, base, n).is_ok());
  for (std::int64_t i = 0; i <= n; ++i) ASSERT_EQ(get_at<std::int32_t>(base, i), 7) << i;
}

}  // namespace
}  // namespace rma::core
