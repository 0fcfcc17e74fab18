// Tests of each reduce op's values (core/reduce.hpp) on every dtype it takes: wrap-around,
// rounding, sign and bit patterns. Every expected value is a literal worked out by hand,
// never produced by the kernel under test.
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

TEST(ReduceSum, EveryDtypeWrapsOrRounds) {
  EXPECT_EQ(i8(Op::sum, 100, 100), -56);
  EXPECT_EQ(i8(Op::sum, -100, -100), 56);
  EXPECT_EQ(i8(Op::sum, -5, 3), -2);
  EXPECT_EQ(i16(Op::sum, 30000, 10000), -25536);
  EXPECT_EQ(i16(Op::sum, -300, 200), -100);
  EXPECT_EQ(i32(Op::sum, 2147483647, 1), kI32Min);
  EXPECT_EQ(i32(Op::sum, -70000, 30000), -40000);
  EXPECT_EQ(i64(Op::sum, 9223372036854775807LL, 1), kI64Min);
  EXPECT_EQ(i64(Op::sum, -5000000000LL, 2000000000LL), -3000000000LL);
  EXPECT_EQ(u8(Op::sum, 200, 100), 44);
  EXPECT_EQ(u8(Op::sum, 200, 55), 255);
  EXPECT_EQ(u16(Op::sum, 65535, 2), 1);
  EXPECT_EQ(u16(Op::sum, 40000, 20000), 60000);
  EXPECT_EQ(u32(Op::sum, 4294967295u, 10u), 9u);
  EXPECT_EQ(u32(Op::sum, 3000000000u, 1000000000u), 4000000000u);
  EXPECT_EQ(u64(Op::sum, kU64Max, 5u), 4u);
  EXPECT_EQ(u64(Op::sum, 10000000000000000000ULL, 1ULL), 10000000000000000001ULL);
  EXPECT_EQ(f32(Op::sum, 1.5f, 2.25f), 3.75f);
  EXPECT_EQ(f32(Op::sum, 1.0f, -3.5f), -2.5f);
  EXPECT_EQ(f64(Op::sum, 0.5, 0.25), 0.75);
  EXPECT_EQ(f64(Op::sum, 1e308, 1e308), std::numeric_limits<double>::infinity());
}

TEST(ReduceProd, EveryDtypeWrapsOrRounds) {
  EXPECT_EQ(i8(Op::prod, 16, 16), 0);
  EXPECT_EQ(i8(Op::prod, 11, 12), -124);
  EXPECT_EQ(i8(Op::prod, -3, 5), -15);
  EXPECT_EQ(i8(Op::prod, -128, -1), -128);
  EXPECT_EQ(i16(Op::prod, 300, 300), 24464);
  EXPECT_EQ(i16(Op::prod, -200, 200), 25536);
  EXPECT_EQ(i32(Op::prod, 65536, 65536), 0);
  EXPECT_EQ(i32(Op::prod, 65537, 65537), 131073);
  EXPECT_EQ(i32(Op::prod, -7, 6), -42);
  EXPECT_EQ(i32(Op::prod, kI32Min, -1), kI32Min);
  EXPECT_EQ(i64(Op::prod, 4294967296LL, 4294967296LL), 0);
  EXPECT_EQ(i64(Op::prod, 4294967297LL, 4294967297LL), 8589934593LL);
  EXPECT_EQ(i64(Op::prod, -3000000000LL, 3), -9000000000LL);
  EXPECT_EQ(i64(Op::prod, kI64Min, -1), kI64Min);
  EXPECT_EQ(u8(Op::prod, 16, 17), 16);
  EXPECT_EQ(u8(Op::prod, 15, 17), 255);
  // 65535 * 65535 overflows int if computed after the usual promotion.
  EXPECT_EQ(u16(Op::prod, 65535, 65535), 1);
  EXPECT_EQ(u16(Op::prod, 300, 300), 24464);
  EXPECT_EQ(u32(Op::prod, 4294967295u, 4294967295u), 1u);
  EXPECT_EQ(u32(Op::prod, 100000u, 100000u), 1410065408u);
  EXPECT_EQ(u64(Op::prod, kU64Max, 3u), 18446744073709551613ULL);
  EXPECT_EQ(u64(Op::prod, 4294967296ULL, 4294967295ULL), 18446744069414584320ULL);
  EXPECT_EQ(f32(Op::prod, 1.5f, -4.0f), -6.0f);
  EXPECT_EQ(f64(Op::prod, 0.5, 0.25), 0.125);
  EXPECT_EQ(f64(Op::prod, -1e308, 10.0), -std::numeric_limits<double>::infinity());
}

// Both orders, so that a kernel keeping the target (or taking the origin) always fails.
TEST(ReduceMin, EveryDtypeNumeric) {
  EXPECT_EQ(i8(Op::min, -100, 50), -100);
  EXPECT_EQ(i8(Op::min, 50, -100), -100);
  EXPECT_EQ(i8(Op::min, -1, -128), -128);
  EXPECT_EQ(i16(Op::min, -30000, 20000), -30000);
  EXPECT_EQ(i16(Op::min, 20000, -30000), -30000);
  EXPECT_EQ(i32(Op::min, 2000000000, -2000000000), -2000000000);
  EXPECT_EQ(i32(Op::min, -3, 7), -3);
  EXPECT_EQ(i64(Op::min, -5000000000LL, 3), -5000000000LL);
  EXPECT_EQ(i64(Op::min, 3, -5000000000LL), -5000000000LL);
  EXPECT_EQ(u8(Op::min, 200, 100), 100);  // 200 would be -56 if read as signed
  EXPECT_EQ(u8(Op::min, 1, 255), 1);
  EXPECT_EQ(u16(Op::min, 65535, 1), 1);
  EXPECT_EQ(u16(Op::min, 2, 40000), 2);
  EXPECT_EQ(u32(Op::min, 4000000000u, 5u), 5u);
  EXPECT_EQ(u32(Op::min, 5u, 4000000000u), 5u);
  EXPECT_EQ(u64(Op::min, kU64Max, 7u), 7u);
  EXPECT_EQ(u64(Op::min, 7u, 9223372036854775808ULL), 7u);
  EXPECT_EQ(f32(Op::min, -1.5f, 2.5f), -1.5f);
  EXPECT_EQ(f32(Op::min, 2.5f, -1.5f), -1.5f);
  EXPECT_EQ(f64(Op::min, -0.25, -0.5), -0.5);
  EXPECT_EQ(f64(Op::min, -0.5, -0.25), -0.5);
}

TEST(ReduceMax, EveryDtypeNumeric) {
  EXPECT_EQ(i8(Op::max, -100, 50), 50);
  EXPECT_EQ(i8(Op::max, 50, -100), 50);
  EXPECT_EQ(i8(Op::max, -1, -128), -1);
  EXPECT_EQ(i16(Op::max, -30000, 20000), 20000);
  EXPECT_EQ(i16(Op::max, 20000, -30000), 20000);
  EXPECT_EQ(i32(Op::max, -2000000000, 2000000000), 2000000000);
  EXPECT_EQ(i32(Op::max, -3, -7), -3);
  EXPECT_EQ(i64(Op::max, -5000000000LL, 3), 3);
  EXPECT_EQ(i64(Op::max, 5000000000LL, -3), 5000000000LL);
  EXPECT_EQ(u8(Op::max, 100, 200), 200);  // 200 would lose to 100 if read as signed
  EXPECT_EQ(u8(Op::max, 255, 1), 255);
  EXPECT_EQ(u16(Op::max, 1, 65535), 65535);
  EXPECT_EQ(u16(Op::max, 40000, 2), 40000);
  EXPECT_EQ(u32(Op::max, 5u, 4000000000u), 4000000000u);
  EXPECT_EQ(u32(Op::max, 4000000000u, 5u), 4000000000u);
  EXPECT_EQ(u64(Op::max, 7u, kU64Max), kU64Max);
  EXPECT_EQ(u64(Op::max, 9223372036854775808ULL, 7u), 9223372036854775808ULL);
  EXPECT_EQ(f32(Op::max, -1.5f, 2.5f), 2.5f);
  EXPECT_EQ(f32(Op::max, 2.5f, -1.5f), 2.5f);
  EXPECT_EQ(f64(Op::max, -0.25, -0.5), -0.25);
  EXPECT_EQ(f64(Op::max, -0.5, -0.25), -0.25);
}

// Bit patterns: 0xCC = 1100'1100 and 0xAA = 1010'1010 give and 0x88, or 0xEE, xor 0x66;
// as i8 they are -52 and -86 giving -120, -18, 102.
TEST(ReduceBand, EveryIntegerDtype) {
  EXPECT_EQ(i8(Op::band, -52, -86), -120);
  EXPECT_EQ(i16(Op::band, -3856, 4080), 240);  // 0xF0F0 & 0x0FF0 = 0x00F0
  EXPECT_EQ(i32(Op::band, -1, 0x12345678), 0x12345678);
  EXPECT_EQ(i32(Op::band, -16, 0x7F), 0x70);
  EXPECT_EQ(i64(Op::band, 0x00FF00FF00FF00FFLL, 0x0F0F0F0F0F0F0F0FLL), 0x000F000F000F000FLL);
  EXPECT_EQ(i64(Op::band, -2, 7), 6);
  EXPECT_EQ(u8(Op::band, 0xCC, 0xAA), 0x88);
  EXPECT_EQ(u16(Op::band, 0xF0F0, 0x0FF0), 0x00F0);
  EXPECT_EQ(u32(Op::band, 0xDEADBEEFu, 0xFFFF0000u), 0xDEAD0000u);
  EXPECT_EQ(u64(Op::band, 0xFFFFFFFF00000000ULL, 0x0123456789ABCDEFULL), 0x0123456700000000ULL);
}

TEST(ReduceBor, EveryIntegerDtype) {
  EXPECT_EQ(i8(Op::bor, -52, -86), -18);
  EXPECT_EQ(i16(Op::bor, -3856, 4080), -16);  // 0xF0F0 | 0x0FF0 = 0xFFF0
  EXPECT_EQ(i32(Op::bor, -16, 3), -13);
  EXPECT_EQ(i32(Op::bor, 0x0F000000, 0x000000F0), 0x0F0000F0);
  EXPECT_EQ(i64(Op::bor, 0x00FF00FF00FF00FFLL, 0x0F0F0F0F0F0F0F0FLL), 0x0FFF0FFF0FFF0FFFLL);
  EXPECT_EQ(u8(Op::bor, 0xCC, 0xAA), 0xEE);
  EXPECT_EQ(u16(Op::bor, 0xF0F0, 0x0FF0), 0xFFF0);
  EXPECT_EQ(u32(Op::bor, 0xDEADBEEFu, 0x0000FFFFu), 0xDEADFFFFu);
  EXPECT_EQ(u64(Op::bor, 0xFFFFFFFF00000000ULL, 0x0123456789ABCDEFULL), 0xFFFFFFFF89ABCDEFULL);
}

TEST(ReduceBxor, EveryIntegerDtype) {
  EXPECT_EQ(i8(Op::bxor, -52, -86), 102);
  EXPECT_EQ(i16(Op::bxor, -3856, 4080), -256);  // 0xF0F0 ^ 0x0FF0 = 0xFF00
  EXPECT_EQ(i32(Op::bxor, 0x0F0F0F0F, 0x00FF00FF), 0x0FF00FF0);
  EXPECT_EQ(i32(Op::bxor, -1, 0), -1);
  EXPECT_EQ(i64(Op::bxor, 0x00FF00FF00FF00FFLL, 0x0F0F0F0F0F0F0F0FLL), 0x0FF00FF00FF00FF0LL);
  EXPECT_EQ(i64(Op::bxor, -1, 5), -6);
  EXPECT_EQ(u8(Op::bxor, 0xCC, 0xAA), 0x66);
  EXPECT_EQ(u16(Op::bxor, 0xF0F0, 0x0FF0), 0xFF00);
  EXPECT_EQ(u32(Op::bxor, 0xDEADBEEFu, 0xFFFFFFFFu), 0x21524110u);
  EXPECT_EQ(u64(Op::bxor, 0xFFFFFFFF00000000ULL, 0x0123456789ABCDEFULL), 0xFEDCBA9889ABCDEFULL);
}

// Logical ops: nonzero is true, the result is exactly 1 or 0. land(2, 4) and lxor(3, 4) are
// chosen because the bitwise op gives a different answer (0 and 7).
TEST(ReduceLand, EveryIntegerDtype) {
  EXPECT_EQ(i8(Op::land, 5, 0), 0);
  EXPECT_EQ(i8(Op::land, 2, 4), 1);
  EXPECT_EQ(i8(Op::land, -128, -1), 1);
  EXPECT_EQ(i16(Op::land, 0, -7), 0);
  EXPECT_EQ(i16(Op::land, 256, 512), 1);
  EXPECT_EQ(i32(Op::land, 65536, 131072), 1);
  EXPECT_EQ(i32(Op::land, kI32Min, 0), 0);
  EXPECT_EQ(i64(Op::land, 4294967296LL, 8589934592LL), 1);
  EXPECT_EQ(i64(Op::land, 0, kI64Min), 0);
  EXPECT_EQ(u8(Op::land, 200, 1), 1);
  EXPECT_EQ(u8(Op::land, 128, 0), 0);
  EXPECT_EQ(u16(Op::land, 256, 512), 1);
  EXPECT_EQ(u32(Op::land, 4294967295u, 0u), 0u);
  EXPECT_EQ(u32(Op::land, 65536u, 2u), 1u);
  EXPECT_EQ(u64(Op::land, 9223372036854775808ULL, 1u), 1u);  // bit 63 alone is true
  EXPECT_EQ(u64(Op::land, 4294967296ULL, 0u), 0u);
}

TEST(ReduceLor, EveryIntegerDtype) {
  EXPECT_EQ(i8(Op::lor, 0, 7), 1);
  EXPECT_EQ(i8(Op::lor, 0, 0), 0);
  EXPECT_EQ(i8(Op::lor, -128, 0), 1);
  EXPECT_EQ(i16(Op::lor, 0, 0), 0);
  EXPECT_EQ(i16(Op::lor, -300, 0), 1);
  EXPECT_EQ(i32(Op::lor, 0, 65536), 1);
  EXPECT_EQ(i32(Op::lor, 0, 0), 0);
  EXPECT_EQ(i64(Op::lor, 4294967296LL, 0), 1);
  EXPECT_EQ(i64(Op::lor, 0, 0), 0);
  EXPECT_EQ(u8(Op::lor, 128, 0), 1);
  EXPECT_EQ(u8(Op::lor, 0, 0), 0);
  EXPECT_EQ(u16(Op::lor, 0, 40000), 1);
  EXPECT_EQ(u16(Op::lor, 0, 0), 0);
  EXPECT_EQ(u32(Op::lor, 4000000000u, 0u), 1u);
  EXPECT_EQ(u32(Op::lor, 0u, 0u), 0u);
  EXPECT_EQ(u64(Op::lor, 0u, 9223372036854775808ULL), 1u);
  EXPECT_EQ(u64(Op::lor, 0u, 0u), 0u);
}

TEST(ReduceLxor, EveryIntegerDtype) {
  EXPECT_EQ(i8(Op::lxor, 3, 4), 0);
  EXPECT_EQ(i8(Op::lxor, 0, -9), 1);
  EXPECT_EQ(i8(Op::lxor, 0, 0), 0);
  EXPECT_EQ(i16(Op::lxor, 256, 1), 0);
  EXPECT_EQ(i16(Op::lxor, 256, 0), 1);
  EXPECT_EQ(i32(Op::lxor, 65536, 0), 1);
  EXPECT_EQ(i32(Op::lxor, -1, 1), 0);
  EXPECT_EQ(i64(Op::lxor, 4294967296LL, 0), 1);
  EXPECT_EQ(i64(Op::lxor, 4294967296LL, 1), 0);
  EXPECT_EQ(u8(Op::lxor, 3, 4), 0);
  EXPECT_EQ(u8(Op::lxor, 0, 200), 1);
  EXPECT_EQ(u16(Op::lxor, 0, 256), 1);
  EXPECT_EQ(u16(Op::lxor, 40000, 3), 0);
  EXPECT_EQ(u32(Op::lxor, 0u, 65536u), 1u);
  EXPECT_EQ(u32(Op::lxor, 0u, 0u), 0u);
  EXPECT_EQ(u64(Op::lxor, 9223372036854775808ULL, 0u), 1u);
  EXPECT_EQ(u64(Op::lxor, 9223372036854775808ULL, 2u), 0u);
}

TEST(ReduceReplace, EveryDtypeTakesTheOrigin) {
  EXPECT_EQ(i8(Op::replace, 5, -7), -7);
  EXPECT_EQ(i16(Op::replace, -1, 12345), 12345);
  EXPECT_EQ(i32(Op::replace, 1, -123456789), -123456789);
  EXPECT_EQ(i64(Op::replace, 0, -5000000000LL), -5000000000LL);
  EXPECT_EQ(u8(Op::replace, 255, 0), 0);
  EXPECT_EQ(u16(Op::replace, 1, 65535), 65535);
  EXPECT_EQ(u32(Op::replace, 0u, 4000000000u), 4000000000u);
  EXPECT_EQ(u64(Op::replace, 1u, kU64Max), kU64Max);
  EXPECT_EQ(f32(Op::replace, 1.0f, -2.5f), -2.5f);
  EXPECT_EQ(f64(Op::replace, 3.0, 0.125), 0.125);
  const double neg_zero = f64(Op::replace, 1.0, -0.0);
  EXPECT_EQ(neg_zero, 0.0);
  EXPECT_TRUE(std::signbit(neg_zero));
}

TEST(ReduceNoOp, EveryDtypeLeavesTheTarget) {
  EXPECT_EQ(i8(Op::no_op, -7, 5), -7);
  EXPECT_EQ(i16(Op::no_op, 12345, -1), 12345);
  EXPECT_EQ(i32(Op::no_op, -123456789, 1), -123456789);
  EXPECT_EQ(i64(Op::no_op, -5000000000LL, 0), -5000000000LL);
  EXPECT_EQ(u8(Op::no_op, 200, 0), 200);
  EXPECT_EQ(u16(Op::no_op, 65535, 1), 65535);
  EXPECT_EQ(u32(Op::no_op, 4000000000u, 0u), 4000000000u);
  EXPECT_EQ(u64(Op::no_op, kU64Max, 1u), kU64Max);
  EXPECT_EQ(f32(Op::no_op, -2.5f, 1.0f), -2.5f);
  EXPECT_EQ(f64(Op::no_op, 0.125, 3.0), 0.125);
}

TEST(ReduceNoOp, NullOriginIsAllowed) {
  std::int32_t t[3] = {1, -2, 3};
  const Status s = reduce(Op::no_op, Dtype::i32, t, nullptr, 3);
  ASSERT_TRUE(s.is_ok()) << s.to_string();
  EXPECT_EQ(t[0], 1);
  EXPECT_EQ(t[1], -2);
  EXPECT_EQ(t[2], 3);
}

}  // namespace
}  // namespace rma::core
