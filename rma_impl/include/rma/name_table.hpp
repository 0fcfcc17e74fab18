// name_table.hpp — one table per enum gives both directions, enum -> name and name -> enum, so a
// spelling exists exactly once.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace rma {

template <class E, std::size_t N>
struct NameTable {
  std::array<std::pair<E, std::string_view>, N> entries;

  constexpr std::string_view name(E e) const {
    for (const auto& [v, n] : entries)
      if (v == e) return n;
    return "?";
  }
  std::vector<std::string_view> names() const {
    std::vector<std::string_view> out;
    for (const auto& e : entries) out.push_back(e.second);
    return out;
  }
  constexpr std::optional<E> parse(std::string_view s) const {
    for (const auto& [v, n] : entries)
      if (n == s) return v;
    return std::nullopt;
  }
};

template <class E, class... P>
constexpr auto make_names(P... p) {
  return NameTable<E, sizeof...(P)>{{std::pair<E, std::string_view>(p)...}};
}

}  // namespace rma
