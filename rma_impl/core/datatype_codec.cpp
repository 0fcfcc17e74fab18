// The compact description of a derived type (Datatype::encode/decode): the constructor tree,
// each node its code, its arguments (displacements in bytes) and its children, so a type of a
// million runs built by one vector travels in a few dozen bytes. decode() rebuilds the type
// through the constructors, which check every argument as they do for a script.
#include <cstring>

#include "rma/datatype.hpp"

namespace rma {

struct Datatype::Codec {
  static constexpr int kMaxDepth = 32;
  static constexpr std::uint32_t kMaxArgs = 1u << 24;

  static void put_u32(std::vector<std::byte>& out, std::uint32_t v) {
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    out.insert(out.end(), p, p + sizeof v);
  }

  static void encode(const Datatype& t, std::vector<std::byte>& out) {
    out.push_back(static_cast<std::byte>(t.code_));
    put_u32(out, static_cast<std::uint32_t>(t.args_.size()));
    const auto* a = reinterpret_cast<const std::byte*>(t.args_.data());
    out.insert(out.end(), a, a + t.args_.size() * sizeof(std::int64_t));
    put_u32(out, static_cast<std::uint32_t>(t.kids_.size()));
    for (const TypeRef& k : t.kids_) encode(*k, out);
  }

  struct Reader {
    std::span<const std::byte> in;
    std::size_t at = 0;
    bool take(void* dst, std::size_t n) {
      if (n == 0) return true;  // an empty list's data() may be null: no memcpy of it
      if (in.size() - at < n) return false;
      std::memcpy(dst, in.data() + at, n);
      at += n;
      return true;
    }
  };

  // One list inside args at `i`: its length, then its values; advances `i`.
  static bool list(const std::vector<std::int64_t>& args, std::size_t& i,
                   std::vector<std::int64_t>& out) {
    if (i >= args.size() || args[i] < 0 ||
        static_cast<std::uint64_t>(args[i]) > args.size() - i - 1)
      return false;
    const auto n = static_cast<std::size_t>(args[i++]);
    out.assign(args.begin() + static_cast<std::ptrdiff_t>(i),
               args.begin() + static_cast<std::ptrdiff_t>(i + n));
    i += n;
    return true;
  }

  static Result<TypeRef> decode(Reader& r, int depth) {
    const Status bad{ErrorClass::type, "a malformed type description"};
    std::uint8_t code = 0;
    std::uint32_t nargs = 0, nkids = 0;
    if (depth > kMaxDepth || !r.take(&code, 1) || !r.take(&nargs, 4) || nargs > kMaxArgs)
      return bad;
    std::vector<std::int64_t> args(nargs);
    if (!r.take(args.data(), nargs * sizeof(std::int64_t)) || !r.take(&nkids, 4) ||
        nkids > kMaxArgs)
      return bad;
    std::vector<TypeRef> kids;
    for (std::uint32_t k = 0; k < nkids; ++k) {
      auto kid = decode(r, depth + 1);
      if (!kid) return kid;
      kids.push_back(std::move(kid.value()));
    }
    return build(static_cast<Code>(code), args, kids, bad);
  }

  static Result<TypeRef> build(Code code, const std::vector<std::int64_t>& a,
                               const std::vector<TypeRef>& kids, const Status& bad) {
    const bool one = kids.size() == 1;
    std::vector<std::int64_t> x, y, z;
    std::size_t i = 0;
    switch (code) {
      case Code::basic:
        if (a.size() != 1 || !kids.empty() || a[0] < 0 || a[0] >= dtype_count) return bad;
        return basic(static_cast<Dtype>(a[0]));
      case Code::contiguous:
        if (a.size() != 1 || !one) return bad;
        return contiguous(a[0], kids[0]);
      case Code::vector:
      case Code::hvector:
        if (a.size() != 3 || !one) return bad;
        return (code == Code::vector ? vector : hvector)(a[0], a[1], a[2], kids[0]);
      case Code::indexed:
      case Code::hindexed:
        if (!one || !list(a, i, x) || !list(a, i, y) || i != a.size()) return bad;
        return (code == Code::indexed ? indexed : hindexed)(x, y, kids[0]);
      case Code::indexed_block:
      case Code::hindexed_block:
        if (!one || a.empty() || !list(a, ++i, x) || i != a.size()) return bad;
        return (code == Code::indexed_block ? indexed_block : hindexed_block)(a[0], x, kids[0]);
      case Code::subarray:
        if (!one || a.empty() || a[0] < 0 || a[0] > 1 || !list(a, ++i, x) || !list(a, i, y) ||
            !list(a, i, z) || i != a.size())
          return bad;
        return subarray(x, y, z, static_cast<Order>(a[0]), kids[0]);
      case Code::struct_:
        if (!list(a, i, x) || !list(a, i, y) || i != a.size()) return bad;
        return struct_(x, y, kids);
      case Code::resized:
        if (a.size() != 2 || !one) return bad;
        return resized(kids[0], a[0], a[1]);
    }
    return bad;
  }
};

std::vector<std::byte> Datatype::encode() const {
  std::vector<std::byte> out;
  Codec::encode(*this, out);
  return out;
}

Result<TypeRef> Datatype::decode(std::span<const std::byte> bytes) {
  Codec::Reader r{bytes};
  auto t = Codec::decode(r, 0);
  if (t && r.at != bytes.size()) return Status{ErrorClass::type, "a malformed type description"};
  return t;
}

}  // namespace rma
