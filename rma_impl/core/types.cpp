// Names, sizes and validity rules of the RMA vocabulary (rma/types.hpp).
#include "rma/types.hpp"

#include "rma/name_table.hpp"

namespace rma {
namespace {

using P_D = std::pair<Dtype, std::string_view>;
using P_O = std::pair<Op, std::string_view>;

constexpr auto kDtypes = make_names<Dtype>(
    P_D{Dtype::i8, "i8"}, P_D{Dtype::i16, "i16"}, P_D{Dtype::i32, "i32"}, P_D{Dtype::i64, "i64"},
    P_D{Dtype::u8, "u8"}, P_D{Dtype::u16, "u16"}, P_D{Dtype::u32, "u32"}, P_D{Dtype::u64, "u64"},
    P_D{Dtype::f32, "f32"}, P_D{Dtype::f64, "f64"}, P_D{Dtype::int2, "2int"},
    P_D{Dtype::short_int, "short_int"}, P_D{Dtype::long_int, "long_int"},
    P_D{Dtype::float_int, "float_int"}, P_D{Dtype::double_int, "double_int"});

constexpr auto kOps = make_names<Op>(
    P_O{Op::sum, "sum"}, P_O{Op::prod, "prod"}, P_O{Op::min, "min"}, P_O{Op::max, "max"},
    P_O{Op::band, "band"}, P_O{Op::bor, "bor"}, P_O{Op::bxor, "bxor"}, P_O{Op::land, "land"},
    P_O{Op::lor, "lor"}, P_O{Op::lxor, "lxor"}, P_O{Op::replace, "replace"},
    P_O{Op::no_op, "no_op"}, P_O{Op::maxloc, "maxloc"}, P_O{Op::minloc, "minloc"});

constexpr auto kLockTypes =
    make_names<LockType>(std::pair{LockType::exclusive, std::string_view("exclusive")},
                         std::pair{LockType::shared, std::string_view("shared")});

constexpr auto kAsserts =
    make_names<unsigned>(std::pair{unsigned{assert_nocheck}, std::string_view("nocheck")},
                         std::pair{unsigned{assert_nostore}, std::string_view("nostore")},
                         std::pair{unsigned{assert_noput}, std::string_view("noput")},
                         std::pair{unsigned{assert_noprecede}, std::string_view("noprecede")},
                         std::pair{unsigned{assert_nosucceed}, std::string_view("nosucceed")});

constexpr auto kFlavors =
    make_names<Flavor>(std::pair{Flavor::create, std::string_view("create")},
                       std::pair{Flavor::allocate, std::string_view("allocate")},
                       std::pair{Flavor::shared, std::string_view("shared")},
                       std::pair{Flavor::dynamic, std::string_view("dynamic")});

constexpr auto kPaths = make_names<Path>(std::pair{Path::am, std::string_view("am")},
                                         std::pair{Path::direct, std::string_view("direct")},
                                         std::pair{Path::auto_, std::string_view("auto")});

constexpr auto kProtocols =
    make_names<Protocol>(std::pair{Protocol::fewest, std::string_view("fewest")},
                         std::pair{Protocol::ch3, std::string_view("ch3")});

constexpr auto kProgress =
    make_names<ProgressMode>(std::pair{ProgressMode::async, std::string_view("async")},
                             std::pair{ProgressMode::calls, std::string_view("calls")},
                             std::pair{ProgressMode::sync_only, std::string_view("sync_only")});

}  // namespace

bool is_signed(Dtype t) {
  return t == Dtype::i8 || t == Dtype::i16 || t == Dtype::i32 || t == Dtype::i64 || is_float(t);
}

std::string_view to_string(Dtype t) {
  return kDtypes.name(t);
}
std::optional<Dtype> parse_dtype(std::string_view n) {
  return kDtypes.parse(n);
}
std::string_view to_string(Op op) {
  return kOps.name(op);
}
std::optional<Op> parse_op(std::string_view n) {
  return kOps.parse(n);
}

bool op_valid_for(Op op, Dtype t) {
  if (op == Op::maxloc || op == Op::minloc) return is_pair(t);
  if (is_pair(t)) return op == Op::replace || op == Op::no_op;
  switch (op) {
    case Op::band:
    case Op::bor:
    case Op::bxor:
    case Op::land:
    case Op::lor:
    case Op::lxor:
      return !is_float(t);
    default:
      return true;
  }
}

std::string_view to_string(LockType t) {
  return kLockTypes.name(t);
}
std::optional<LockType> parse_lock_type(std::string_view n) {
  return kLockTypes.parse(n);
}

std::optional<unsigned> parse_assert(std::string_view n) {
  if (n == "none" || n.empty()) return 0u;
  return kAsserts.parse(n);
}

std::string asserts_to_string(unsigned asserts) {
  std::string s;
  for (const auto& [bit, name] : kAsserts.entries) {
    if (!(asserts & bit)) continue;
    if (!s.empty()) s += ',';
    s += name;
  }
  return s.empty() ? "none" : s;
}

std::string_view to_string(Flavor f) {
  return kFlavors.name(f);
}
std::optional<Flavor> parse_flavor(std::string_view n) {
  return kFlavors.parse(n);
}
std::string_view to_string(Path p) {
  return kPaths.name(p);
}
std::optional<Path> parse_path(std::string_view n) {
  return kPaths.parse(n);
}
std::vector<std::string_view> path_names() {
  return kPaths.names();
}
std::string_view to_string(Protocol p) {
  return kProtocols.name(p);
}
std::optional<Protocol> parse_protocol(std::string_view n) {
  return kProtocols.parse(n);
}
std::vector<std::string_view> protocol_names() {
  return kProtocols.names();
}
std::string_view to_string(ProgressMode m) {
  return kProgress.name(m);
}
// "sync-only" is the spelling before CLI values became snake_case; still accepted.
std::optional<ProgressMode> parse_progress_mode(std::string_view n) {
  return kProgress.parse(n == "sync-only" ? std::string_view("sync_only") : n);
}
std::vector<std::string_view> progress_mode_names() {
  return kProgress.names();
}

}  // namespace rma
