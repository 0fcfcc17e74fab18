// Error class names as MPI spells them after MPI_ERR_, and Status rendering.
#include "rma/status.hpp"

#include <array>

namespace rma {
namespace {

struct ClassName {
  ErrorClass cls;
  std::string_view name;
};

constexpr std::array<ClassName, 24> kClassNames{{
    {ErrorClass::success, "SUCCESS"},
    {ErrorClass::arg, "ARG"},
    {ErrorClass::type, "TYPE"},
    {ErrorClass::op, "OP"},
    {ErrorClass::rank, "RANK"},
    {ErrorClass::count, "COUNT"},
    {ErrorClass::buffer, "BUFFER"},
    {ErrorClass::truncate, "TRUNCATE"},
    {ErrorClass::win, "WIN"},
    {ErrorClass::locktype, "LOCKTYPE"},
    {ErrorClass::assert_, "ASSERT"},
    {ErrorClass::disp, "DISP"},
    {ErrorClass::size, "SIZE"},
    {ErrorClass::info, "INFO"},
    {ErrorClass::rma_sync, "RMA_SYNC"},
    {ErrorClass::rma_range, "RMA_RANGE"},
    {ErrorClass::rma_conflict, "RMA_CONFLICT"},
    {ErrorClass::rma_attach, "RMA_ATTACH"},
    {ErrorClass::rma_shared, "RMA_SHARED"},
    {ErrorClass::rma_flavor, "RMA_FLAVOR"},
    {ErrorClass::unsupported, "UNSUPPORTED_OPERATION"},
    {ErrorClass::proc_failed, "PROC_FAILED"},
    {ErrorClass::intern, "INTERN"},
    {ErrorClass::other, "OTHER"},
}};

}  // namespace

std::string_view class_name(ErrorClass c) {
  for (const auto& e : kClassNames)
    if (e.cls == c) return e.name;
  return "UNKNOWN";
}

std::optional<ErrorClass> parse_error_class(std::string_view name) {
  for (const auto& e : kClassNames)
    if (e.name == name) return e.cls;
  return std::nullopt;
}

const std::string& Status::message() const {
  static const std::string none;
  return message_ ? *message_ : none;
}

std::string Status::to_string() const {
  if (is_ok()) return "SUCCESS";
  std::string s(class_name());
  s += ": ";
  s += message();
  return s;
}

}  // namespace rma
