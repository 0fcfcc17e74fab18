// Tests of compare_and_swap (core/reduce.hpp): a swap only on equality of the whole element,
// for every integer dtype, refused for floats, at any alignment and with aliased buffers.
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
