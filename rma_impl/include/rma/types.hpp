// rma/types.hpp — the vocabulary of the RMA API: datatypes, reduction ops, lock types,
// asserts, window flavors, paths and progress modes.
//
// Every enum has one spelling, MPI's name in snake_case, used by C++, Lua, the CLI and the
// reports alike: to_string(Op::fetch...) / parse_op("sum"). Parsers return nullopt for an
// unknown name so that callers can raise the right error class (TYPE, OP, ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rma {

// MPI_PROC_NULL: a valid target of every communication call, which then does nothing.
inline constexpr int proc_null = -1;

// The scalars, then MPI's pair types for MAXLOC and MINLOC (a value and an int index, as C
// lays out the struct: MPI_2INT, MPI_SHORT_INT, MPI_LONG_INT, MPI_FLOAT_INT, MPI_DOUBLE_INT).
enum class Dtype : std::uint8_t {
  i8,
  i16,
  i32,
  i64,
  u8,
  u16,
  u32,
  u64,
  f32,
  f64,
  int2,
  short_int,
  long_int,
  float_int,
  double_int
};
inline constexpr int dtype_count = 15;
inline constexpr int scalar_dtype_count = 10;  // the scalars come first
constexpr bool is_pair(Dtype t) {
  return static_cast<int>(t) >= scalar_dtype_count;
}

// Inline: every op of every path asks, in its hot path.
constexpr std::size_t size_of(Dtype t) {
  switch (t) {
    case Dtype::i8:
    case Dtype::u8:
      return 1;
    case Dtype::i16:
    case Dtype::u16:
      return 2;
    case Dtype::i32:
    case Dtype::u32:
    case Dtype::f32:
      return 4;
    case Dtype::i64:
    case Dtype::u64:
    case Dtype::f64:
      return 8;
    case Dtype::int2:
    case Dtype::short_int:
    case Dtype::float_int:
      return 8;
    case Dtype::long_int:
    case Dtype::double_int:
      return 16;
  }
  return 0;
}
// MPI's size of one element: a pair's value and index without the padding between or after
// them (MPI_SHORT_INT is 6 bytes in an 8-byte extent), a scalar's size_of.
constexpr std::size_t data_size(Dtype t) {
  switch (t) {
    case Dtype::short_int:
      return 6;
    case Dtype::long_int:
    case Dtype::double_int:
      return 12;
    default:
      return size_of(t);
  }
}
// Padding after a pair's index (a 16-byte pair's last 4 bytes), which no data occupies.
constexpr std::size_t tail_padding(Dtype t) {
  return t == Dtype::long_int || t == Dtype::double_int ? 4 : 0;
}
// The alignment C gives an element: a pair's is its larger member's.
constexpr std::size_t alignment_of(Dtype t) {
  return t == Dtype::long_int || t == Dtype::double_int ? 8 : is_pair(t) ? 4 : size_of(t);
}
constexpr bool is_float(Dtype t) {
  return t == Dtype::f32 || t == Dtype::f64;
}
bool is_signed(Dtype t);
std::string_view to_string(Dtype t);
std::optional<Dtype> parse_dtype(std::string_view name);

// The predefined reduction ops that accumulate-style calls accept.
// maxloc and minloc come last: they are defined on the pair types only.
enum class Op : std::uint8_t {
  sum,
  prod,
  min,
  max,
  band,
  bor,
  bxor,
  land,
  lor,
  lxor,
  replace,
  no_op,
  maxloc,
  minloc
};
inline constexpr int op_count = 14;
inline constexpr int scalar_op_count = 12;  // the ops on scalar dtypes

std::string_view to_string(Op op);
std::optional<Op> parse_op(std::string_view name);
// MPI's rules: bitwise and logical ops are defined on integer types only; maxloc and minloc
// on the pair types only, which take nothing else but replace and no_op.
bool op_valid_for(Op op, Dtype t);

enum class LockType : std::uint8_t { exclusive, shared };
std::string_view to_string(LockType t);
std::optional<LockType> parse_lock_type(std::string_view name);

// MPI_MODE_* asserts, as bits.
enum Assert : unsigned {
  assert_none = 0,
  assert_nocheck = 1u << 0,
  assert_nostore = 1u << 1,
  assert_noput = 1u << 2,
  assert_noprecede = 1u << 3,
  assert_nosucceed = 1u << 4,
};
std::optional<unsigned> parse_assert(std::string_view name);
std::string asserts_to_string(unsigned asserts);  // "nocheck,noput" or "none"

enum class Flavor : std::uint8_t { create, allocate, shared, dynamic };
std::string_view to_string(Flavor f);
std::optional<Flavor> parse_flavor(std::string_view name);

// Which table of operations a window uses (see rma/window.hpp).
enum class Path : std::uint8_t { am, direct, auto_ };
std::string_view to_string(Path p);
std::optional<Path> parse_path(std::string_view name);
std::vector<std::string_view> path_names();  // "am", "direct", "auto"

// The packet protocol of the am path (docs/protocol.md): `fewest`, the default, sends the
// fewest messages (ops travel ahead of the lock grant or the post and the target holds them,
// within the window's hold_budget); `ch3` is the seed notes' CH3 protocol (ask, then send).
enum class Protocol : std::uint8_t { fewest, ch3 };
std::string_view to_string(Protocol p);
std::optional<Protocol> parse_protocol(std::string_view name);
std::vector<std::string_view> protocol_names();  // "fewest", "ch3"

// Where RMA progress is made. async: an agent thread plus every library call; calls: inside
// any library call; sync_only: inside RMA synchronization calls only (the mistake the seed
// notes warn about: it deadlocks a target waiting in recv).
enum class ProgressMode : std::uint8_t { async, calls, sync_only };
std::string_view to_string(ProgressMode m);
std::optional<ProgressMode> parse_progress_mode(std::string_view name);
std::vector<std::string_view> progress_mode_names();  // canonical spellings

}  // namespace rma
