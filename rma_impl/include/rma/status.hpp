// rma/status.hpp — how the reference implementation reports errors.
//
// Every fallible call returns a Status (or a Result<T>, a value or a Status). A failed
// Status carries an MPI-style error class (RMA_SYNC, RMA_RANGE, ARG, ...) and a message
// that names the call, the window, the target and what was wrong. The implementation never
// throws; exceptions belong to setup and CLI code in the harness.
//
//   rma::Status s = win.put(buf, 8, rma::Dtype::u8, 1, 0);
//   if (!s) std::cerr << s.class_name() << ": " << s.message() << "\n";
#pragma once

#include <cassert>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace rma {

// MPI's error classes, by their MPI_ERR_ suffix. Names are what reports and Lua see.
enum class ErrorClass : unsigned char {
  success,
  arg,           // ARG: an argument is invalid
  type,          // TYPE: datatype unknown or not allowed for the operation
  op,            // OP: reduction op unknown or not allowed for the datatype
  rank,          // RANK: target rank out of range
  count,         // COUNT: negative or too large element count
  buffer,        // BUFFER: null or too small buffer
  truncate,      // TRUNCATE: received message longer than the receive buffer
  win,           // WIN: invalid or freed window
  locktype,      // LOCKTYPE: lock type is neither shared nor exclusive
  assert_,       // ASSERT: assert not allowed for the call
  disp,          // DISP: invalid displacement unit
  size,          // SIZE: invalid window size
  info,          // INFO: bad info key or value
  rma_sync,      // RMA_SYNC: call not allowed in the current synchronization state
  rma_range,     // RMA_RANGE: target location outside the window
  rma_conflict,  // RMA_CONFLICT: conflicting accesses detected
  rma_attach,    // RMA_ATTACH: memory cannot be attached or detached
  rma_shared,    // RMA_SHARED: memory cannot be shared
  rma_flavor,    // RMA_FLAVOR: call not valid for the window's flavor
  unsupported,   // UNSUPPORTED_OPERATION: not implemented by this backend or path
  proc_failed,   // PROC_FAILED: a peer died or became unreachable
  intern,        // INTERN: internal error (a bug in the implementation)
  other,         // OTHER: system error (errno text in the message)
};

std::string_view class_name(ErrorClass c);
// Parses a class name as written in scripts ("RMA_SYNC"); nullopt if unknown.
std::optional<ErrorClass> parse_error_class(std::string_view name);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorClass c, std::string message)
      : class_(c), message_(std::make_unique<std::string>(std::move(message))) {}
  Status(const Status& o) : class_(o.class_) {
    if (o.message_) message_ = std::make_unique<std::string>(*o.message_);
  }
  Status& operator=(const Status& o) {
    if (this != &o) *this = Status(o);
    return *this;
  }
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status ok() { return {}; }

  bool is_ok() const { return class_ == ErrorClass::success; }
  explicit operator bool() const { return is_ok(); }
  ErrorClass error_class() const { return class_; }
  std::string_view class_name() const { return rma::class_name(class_); }
  const std::string& message() const;

  // "RMA_SYNC: put: window 2, target 1: no access epoch" — for logs and exceptions.
  std::string to_string() const;

 private:
  // Every call returns a Status, nearly always ok: that case is a byte and a null pointer,
  // nothing to build or free; only a failure allocates its message.
  ErrorClass class_ = ErrorClass::success;
  std::unique_ptr<std::string> message_;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status error) : v_(std::move(error)) { assert(!std::get<Status>(v_).is_ok()); }

  bool is_ok() const { return v_.index() == 0; }
  explicit operator bool() const { return is_ok(); }
  T& value() & { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const T& value() const& { return std::get<0>(v_); }
  T& operator*() & { return value(); }
  T* operator->() { return &value(); }
  const Status& status() const {
    static const Status ok_status;
    return is_ok() ? ok_status : std::get<1>(v_);
  }

 private:
  std::variant<T, Status> v_;
};

}  // namespace rma

// Propagates a failed Status from an expression that yields one.
#define RMA_TRY(expr)                             \
  do {                                            \
    ::rma::Status rma_try_status_ = (expr);       \
    if (!rma_try_status_) return rma_try_status_; \
  } while (0)
