// rma/datatype.hpp — derived datatypes: MPI's type constructors over the basic dtypes, and
// the (count, type) layout every communication call takes on each side.
//
// A type is immutable and shared (TypeRef): freeing the handle a script holds never frees a
// type an op in flight still uses. Its type map is kept flat, one instance's contiguous runs
// in type-map order (the order data is sent in), which is all the paths need: the generic
// layer walks origin and target layouts in step and hands each path contiguous pieces.
//
//   auto col = rma::Datatype::vector(n, 1, n, rma::Datatype::basic(rma::Dtype::f64));
//   win->put(buf, {n, f64}, 1, 0, {1, *col});   // a row here, a column there
//
// Sizes, bounds and extents follow MPI's definitions (bytes); a constructor's bad argument is
// an error naming the argument, never an assertion.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rma/status.hpp"
#include "rma/types.hpp"

namespace rma {

class Datatype;
using TypeRef = std::shared_ptr<const Datatype>;

// Storage order of a subarray: C (last index fastest) or Fortran (first index fastest).
enum class Order : std::uint8_t { c, fortran };
std::optional<Order> parse_order(std::string_view name);  // "c", "fortran"

// A run of `count` elements of `dtype` at byte `offset` from the start of an instance.
// `pos` is where the run's bytes start in the instance's data taken in order (its packed
// stream), so a position in the stream finds its run by binary search.
struct TypeBlock {
  std::int64_t offset = 0;
  std::uint64_t count = 0;
  Dtype dtype = Dtype::u8;
  std::uint64_t pos = 0;

  // Bytes from `offset` to the end of the run's data: its last pair's tail padding is left
  // out (no call writes it, and MPI lets other data lie there).
  std::uint64_t data_reach() const {
    return count == 0 ? 0 : count * size_of(dtype) - tail_padding(dtype);
  }
};

// One run of a signature: `count` basic elements of `dtype` in a row.
struct SignatureRun {
  Dtype dtype = Dtype::u8;
  std::uint64_t count = 0;
  bool operator==(const SignatureRun&) const = default;
};

class Datatype {
 public:
  using Ints = std::span<const std::int64_t>;

  static TypeRef basic(Dtype t);
  static Result<TypeRef> contiguous(std::int64_t count, const TypeRef& old);
  static Result<TypeRef> vector(std::int64_t count, std::int64_t blocklength, std::int64_t stride,
                                const TypeRef& old);
  static Result<TypeRef> hvector(std::int64_t count, std::int64_t blocklength,
                                 std::int64_t stride_bytes, const TypeRef& old);
  static Result<TypeRef> indexed(Ints blocklengths, Ints displacements, const TypeRef& old);
  static Result<TypeRef> hindexed(Ints blocklengths, Ints byte_displacements, const TypeRef& old);
  static Result<TypeRef> indexed_block(std::int64_t blocklength, Ints displacements,
                                       const TypeRef& old);
  static Result<TypeRef> hindexed_block(std::int64_t blocklength, Ints byte_displacements,
                                        const TypeRef& old);
  static Result<TypeRef> subarray(Ints sizes, Ints subsizes, Ints starts, Order order,
                                  const TypeRef& old);
  static Result<TypeRef> struct_(Ints blocklengths, Ints byte_displacements,
                                 std::span<const TypeRef> types);
  static Result<TypeRef> resized(const TypeRef& old, std::int64_t lb, std::int64_t extent);

  // MPI's size: bytes of data in one instance (a pair counted without its padding).
  std::uint64_t size() const { return mpi_size_; }
  // Bytes of one instance's runs as they are copied (a pair with its padding): its packed
  // stream, what a path moves.
  std::uint64_t packed_size() const { return size_; }
  std::int64_t lb() const { return lb_; }
  std::int64_t ub() const { return lb_ + extent_; }
  std::int64_t extent() const { return extent_; }
  std::int64_t true_lb() const { return true_lb_; }
  std::int64_t true_extent() const { return true_ub_ - true_lb_; }
  // The true extent with a pair type's tail padding (long_int, double_int), which range
  // checks count: conservative, since no call writes a pair's padding (core/element_copy.hpp),
  // but a reduction reads whole pairs. Overlap checks leave a run's last padding out.
  std::int64_t padded_extent() const { return padded_ub_ - true_lb_; }
  std::uint64_t elements() const { return elements_; }  // basic elements in one instance
  // The basic type every element has, if they all have one (accumulate needs it).
  std::optional<Dtype> basic_type() const { return basic_; }
  bool is_basic() const { return kind_ == Kind::basic; }
  // One run of one basic type at offset 0 whose extent is its size: `count` instances are
  // `count * elements()` contiguous elements, as a plain buffer.
  bool dense() const { return dense_; }
  // Runs of one length at one stride (a vector, a 2-D subarray): their bytes and the step
  // between them, for copy loops that need no table; 0 bytes when the runs are not so.
  std::uint64_t uniform_bytes() const { return uniform_bytes_; }
  std::int64_t uniform_stride() const { return uniform_stride_; }
  // Whether one instance writes some byte twice (decided once, at construction).
  bool overlaps_itself() const { return overlaps_one_; }
  const std::vector<TypeBlock>& blocks() const { return blocks_; }
  // The basic types of one instance, in order, run-length encoded.
  std::vector<SignatureRun> signature_runs() const;
  // "i32*12,f64*2": the signature as scripts and error messages print it.
  std::string signature() const;
  // A readable description, as its constructor call: "vector(4, 1, 8, i32)".
  const std::string& describe() const { return text_; }

  // How the type was built: its constructor, that constructor's integer arguments (lists as
  // their length then their values; subarray's order first) and its old types. An MPI
  // implementation under test builds the same type from it with MPI's own constructors.
  enum class Code : std::uint8_t {
    basic,
    contiguous,
    vector,
    hvector,
    indexed,
    hindexed,
    indexed_block,
    hindexed_block,
    subarray,
    struct_,
    resized
  };
  Code code() const { return code_; }
  const std::vector<std::int64_t>& args() const { return args_; }
  const std::vector<TypeRef>& kids() const { return kids_; }

  // A compact description of how the type was built, which decode() turns back into a type
  // with the same type map and bounds (the am path ships it to a target once per window).
  std::vector<std::byte> encode() const;
  std::size_t description_bytes() const { return desc_bytes_; }  // encode().size()
  // A description from a peer: anything malformed is an error, never a crash.
  static Result<TypeRef> decode(std::span<const std::byte> bytes);

 private:
  enum class Kind : std::uint8_t { basic, derived };
  struct Builder;
  struct Codec;
  Datatype() = default;
  // Records how a successful constructor built its type.
  static Result<TypeRef> built(Result<TypeRef> r, Code code, std::vector<std::int64_t> args,
                               std::vector<TypeRef> kids);

  Kind kind_ = Kind::derived;
  std::uint64_t size_ = 0;  // packed
  std::uint64_t mpi_size_ = 0;
  std::uint64_t elements_ = 0;
  std::int64_t lb_ = 0, extent_ = 0;
  std::int64_t true_lb_ = 0, true_ub_ = 0;
  std::int64_t padded_ub_ = 0;  // true_ub_ with a pair's tail padding
  std::optional<Dtype> basic_;
  bool mixed_ = false;         // elements of more than one basic type
  bool overlaps_one_ = false;  // one instance writes some byte twice
  std::uint64_t uniform_bytes_ = 0;
  std::int64_t uniform_stride_ = 0;
  bool dense_ = false;
  // Bounds set explicitly (resized or subarray somewhere inside): they alone decide a new
  // type's bounds, and no struct padding applies.
  bool explicit_bounds_ = false;
  std::size_t align_ = 1;  // the largest basic alignment inside
  std::vector<TypeBlock> blocks_;
  std::string text_;
  Code code_ = Code::basic;
  std::vector<std::int64_t> args_;
  std::vector<TypeRef> kids_;
  std::size_t desc_bytes_ = 0;
};

// The (count, datatype) pair a communication call takes on each side.
struct Layout {
  std::uint64_t count = 0;
  TypeRef type;
  std::uint64_t bytes() const { return count * type->packed_size(); }  // packed
  std::uint64_t elements() const { return count * type->elements(); }
  // The byte range [lo, hi) the layout's data occupies, relative to its buffer's start (with
  // a pair type's tail padding, which range checks count: Datatype::padded_extent).
  std::int64_t data_lo() const;
  std::int64_t data_hi() const;
  // Whether `count` instances keep their data, and the distance their extents add, below
  // 2^48 bytes (a type's own data stays below that, its bounds near it); only then do
  // bytes(), elements(), data_lo() and data_hi() not overflow. The calls check it first,
  // and a layout past it is a COUNT error.
  bool in_limits() const;
  // "2 x vector(4, 1, 8, i32)"
  std::string describe() const;
  // "i32*24": the signature of all `count` instances, runs merged.
  std::string signature() const;
};

// Whether two layouts carry the same sequence of basic types.
bool same_signature(const Layout& a, const Layout& b);
// Whether any byte of the layout is written twice (MPI forbids it where data is received);
// unknown when deciding it would take more than about 2^28 comparisons (instances that
// interleave over a type of many runs).
enum class Overlap : unsigned char { none, some, unknown };
Overlap overlaps(const Layout& l);

}  // namespace rma
