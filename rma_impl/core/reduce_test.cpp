// Tests of the reduce kernels (core/reduce.hpp). Every expected value is a literal worked
// out by hand (wrap-around, sign, bit patterns), never produced by the kernel under test;
// the one test that compares two kernel entry points says so in its name.
#include "core/reduce.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace rma::core {
namespace {

template <class T>
constexpr Dtype dtype_of();
template <>
constexpr Dtype dtype_of<std::int8_t>() {
  return Dtype::i8;
}
template <>
constexpr Dtype dtype_of<std::int16_t>() {
  return Dtype::i16;
}
template <>
constexpr Dtype dtype_of<std::int32_t>() {
  return Dtype::i32;
}
template <>
constexpr Dtype dtype_of<std::int64_t>() {
  return Dtype::i64;
}
template <>
constexpr Dtype dtype_of<std::uint8_t>() {
  return Dtype::u8;
}
template <>
constexpr Dtype dtype_of<std::uint16_t>() {
  return Dtype::u16;
}
template <>
constexpr Dtype dtype_of<std::uint32_t>() {
  return Dtype::u32;
}
template <>
constexpr Dtype dtype_of<std::uint64_t>() {
  return Dtype::u64;
}
template <>
constexpr Dtype dtype_of<float>() {
  return Dtype::f32;
}
template <>
constexpr Dtype dtype_of<double>() {
  return Dtype::f64;
}

// The target after op(target, origin) on one element.
template <class T>
T reduce_one(Op op, T target, T origin) {
  const Status s = reduce(op, dtype_of<T>(), &target, &origin, 1);
  EXPECT_TRUE(s.is_ok()) << to_string(op) << " " << to_string(dtype_of<T>()) << ": "
                         << s.to_string();
  return target;
}

// Shorthands that keep the tables below one line per case; narrow types print as numbers.
int i8(Op op, std::int8_t t, std::int8_t o) {
  return reduce_one<std::int8_t>(op, t, o);
}
int i16(Op op, std::int16_t t, std::int16_t o) {
  return reduce_one<std::int16_t>(op, t, o);
}
std::int32_t i32(Op op, std::int32_t t, std::int32_t o) {
  return reduce_one(op, t, o);
}
std::int64_t i64(Op op, std::int64_t t, std::int64_t o) {
  return reduce_one(op, t, o);
}
int u8(Op op, std::uint8_t t, std::uint8_t o) {
  return reduce_one<std::uint8_t>(op, t, o);
}
int u16(Op op, std::uint16_t t, std::uint16_t o) {
  return reduce_one<std::uint16_t>(op, t, o);
}
std::uint32_t u32(Op op, std::uint32_t t, std::uint32_t o) {
  return reduce_one(op, t, o);
}
std::uint64_t u64(Op op, std::uint64_t t, std::uint64_t o) {
  return reduce_one(op, t, o);
}
float f32(Op op, float t, float o) {
  return reduce_one(op, t, o);
}
double f64(Op op, double t, double o) {
  return reduce_one(op, t, o);
}

constexpr std::int32_t kI32Min = -2147483647 - 1;
constexpr std::int64_t kI64Min = -9223372036854775807LL - 1;
constexpr std::uint64_t kU64Max = 18446744073709551615ULL;

// Element i of a byte buffer, at any alignment.
template <class T>
void put_at(std::byte* buf, std::size_t i, T v) {
  std::memcpy(buf + i * sizeof(T), &v, sizeof(T));
}
template <class T>
T get_at(const std::byte* buf, std::size_t i) {
  T v;
  std::memcpy(&v, buf + i * sizeof(T), sizeof(T));
  return v;
}

constexpr Op kAllOps[] = {Op::sum,  Op::prod, Op::min, Op::max,  Op::band,    Op::bor,
                          Op::bxor, Op::land, Op::lor, Op::lxor, Op::replace, Op::no_op};
constexpr Dtype kAllDtypes[] = {Dtype::i8,  Dtype::i16, Dtype::i32, Dtype::i64, Dtype::u8,
                                Dtype::u16, Dtype::u32, Dtype::u64, Dtype::f32, Dtype::f64};

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

template <class T>
void expect_cas(T old_value, T other) {
  SCOPED_TRACE(to_string(dtype_of<T>()));
  const Dtype d = dtype_of<T>();
  // Equal: swaps, returns the old value.
  T target = old_value;
  T compare = old_value;
  T value = other;
  T result = other;
  ASSERT_TRUE(compare_and_swap(d, &target, &compare, &value, &result).is_ok());
  EXPECT_EQ(target, other);
  EXPECT_EQ(result, old_value);
  // Not equal: leaves the target, still returns the old value.
  target = old_value;
  compare = other;
  value = other;
  result = other;
  ASSERT_TRUE(compare_and_swap(d, &target, &compare, &value, &result).is_ok());
  EXPECT_EQ(target, old_value);
  EXPECT_EQ(result, old_value);
}

TEST(CompareAndSwap, SwapsOnlyOnEqualityForEveryIntegerDtype) {
  expect_cas<std::int8_t>(-5, 100);
  expect_cas<std::int16_t>(-30000, 12345);
  expect_cas<std::int32_t>(-2000000000, 7);
  expect_cas<std::int64_t>(-5000000000LL, 5000000000LL);
  expect_cas<std::uint8_t>(200, 1);
  expect_cas<std::uint16_t>(65535, 256);
  expect_cas<std::uint32_t>(4000000000u, 3u);
  expect_cas<std::uint64_t>(kU64Max, 9223372036854775808ULL);
}

// Values that agree in their low bytes: a comparison of fewer bytes than the type has would
// swap here.
TEST(CompareAndSwap, ComparesTheWholeElement) {
  {
    std::int16_t t = 0x0101, c = 0x0001, v = 9, r = 0;
    ASSERT_TRUE(compare_and_swap(Dtype::i16, &t, &c, &v, &r).is_ok());
    EXPECT_EQ(t, 0x0101);
    EXPECT_EQ(r, 0x0101);
  }
  {
    std::uint32_t t = 0x80000001u, c = 0x00000001u, v = 9u, r = 0u;
    ASSERT_TRUE(compare_and_swap(Dtype::u32, &t, &c, &v, &r).is_ok());
    EXPECT_EQ(t, 0x80000001u);
    EXPECT_EQ(r, 0x80000001u);
  }
  {
    std::uint64_t t = 0x8000000000000001ULL, c = 1u, v = 9u, r = 0u;
    ASSERT_TRUE(compare_and_swap(Dtype::u64, &t, &c, &v, &r).is_ok());
    EXPECT_EQ(t, 0x8000000000000001ULL);
    EXPECT_EQ(r, 0x8000000000000001ULL);
  }
  {
    // Only one byte is the element: the byte after it is neither compared nor written.
    std::uint8_t t[2] = {7, 1}, c[2] = {7, 2}, v[2] = {9, 9}, r[2] = {0, 0};
    ASSERT_TRUE(compare_and_swap(Dtype::u8, t, c, v, r).is_ok());
    EXPECT_EQ(t[0], 9);
    EXPECT_EQ(t[1], 1);
    EXPECT_EQ(r[0], 7);
    EXPECT_EQ(r[1], 0);
  }
}

TEST(CompareAndSwap, FloatTypesAreTypeErrors) {
  {
    float t = 1.0f, c = 1.0f, v = 2.0f, r = 0.0f;
    const Status s = compare_and_swap(Dtype::f32, &t, &c, &v, &r);
    EXPECT_EQ(s.error_class(), ErrorClass::type);
    EXPECT_NE(s.message().find("f32"), std::string::npos) << s.message();
    EXPECT_EQ(t, 1.0f);
    EXPECT_EQ(r, 0.0f);
  }
  {
    double t = 1.0, c = 1.0, v = 2.0, r = 0.0;
    const Status s = compare_and_swap(Dtype::f64, &t, &c, &v, &r);
    EXPECT_EQ(s.error_class(), ErrorClass::type);
    EXPECT_NE(s.message().find("f64"), std::string::npos) << s.message();
    EXPECT_EQ(t, 1.0);
    EXPECT_EQ(r, 0.0);
  }
}

TEST(CompareAndSwap, UnalignedElements) {
  std::byte buf[4 * 8 + 4] = {};
  std::byte* t = buf + 1;
  std::byte* c = buf + 10;
  std::byte* v = buf + 19;
  std::byte* r = buf + 27;
  put_at<std::int64_t>(t, 0, kI64Min);
  put_at<std::int64_t>(c, 0, kI64Min);
  put_at<std::int64_t>(v, 0, 123456789012LL);
  ASSERT_TRUE(compare_and_swap(Dtype::i64, t, c, v, r).is_ok());
  EXPECT_EQ(get_at<std::int64_t>(t, 0), 123456789012LL);
  EXPECT_EQ(get_at<std::int64_t>(r, 0), kI64Min);

  put_at<std::int64_t>(c, 0, 0);
  ASSERT_TRUE(compare_and_swap(Dtype::i64, t, c, v, r).is_ok());
  EXPECT_EQ(get_at<std::int64_t>(t, 0), 123456789012LL);
  EXPECT_EQ(get_at<std::int64_t>(r, 0), 123456789012LL);
}

TEST(CompareAndSwap, ResultMayAliasCompare) {
  std::int32_t t = -8, cr = -8, v = 5;
  ASSERT_TRUE(compare_and_swap(Dtype::i32, &t, &cr, &v, &cr).is_ok());
  EXPECT_EQ(t, 5);
  EXPECT_EQ(cr, -8);
}

}  // namespace
}  // namespace rma::core
