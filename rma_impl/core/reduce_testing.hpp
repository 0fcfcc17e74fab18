// reduce_testing.hpp — what the reduce kernel tests share (reduce_test.cpp,
// reduce_ops_test.cpp, fetch_reduce_test.cpp, compare_and_swap_test.cpp): the Dtype of a C++
// type, one-element reduce shorthands that keep the value tables one line per case, edge
// values, unaligned element access, and every op and dtype. Only those tests include it.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "core/reduce.hpp"

namespace rma::core {

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
inline int i8(Op op, std::int8_t t, std::int8_t o) {
  return reduce_one<std::int8_t>(op, t, o);
}
inline int i16(Op op, std::int16_t t, std::int16_t o) {
  return reduce_one<std::int16_t>(op, t, o);
}
inline std::int32_t i32(Op op, std::int32_t t, std::int32_t o) {
  return reduce_one(op, t, o);
}
inline std::int64_t i64(Op op, std::int64_t t, std::int64_t o) {
  return reduce_one(op, t, o);
}
inline int u8(Op op, std::uint8_t t, std::uint8_t o) {
  return reduce_one<std::uint8_t>(op, t, o);
}
inline int u16(Op op, std::uint16_t t, std::uint16_t o) {
  return reduce_one<std::uint16_t>(op, t, o);
}
inline std::uint32_t u32(Op op, std::uint32_t t, std::uint32_t o) {
  return reduce_one(op, t, o);
}
inline std::uint64_t u64(Op op, std::uint64_t t, std::uint64_t o) {
  return reduce_one(op, t, o);
}
inline float f32(Op op, float t, float o) {
  return reduce_one(op, t, o);
}
inline double f64(Op op, double t, double o) {
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

}  // namespace rma::core
