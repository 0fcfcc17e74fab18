// Parsing of the window info keys (window_info.hpp): one table, one parser per key.
#include "core/window_info.hpp"

#include <charconv>
#include <string_view>

#include "rma/runtime.hpp"

namespace rma::core {
namespace {

Status bad(std::string_view key, std::string_view value, std::string_view expected) {
  return {ErrorClass::info, "window info " + std::string(key) + "=" + std::string(value) +
                                ": expected " + std::string(expected)};
}

Status parse_bool(std::string_view key, std::string_view v, bool& out) {
  if (v == "true" || v == "false") {
    out = v == "true";
    return Status::ok();
  }
  return bad(key, v, "true or false");
}

Status parse_ordering(std::string_view key, std::string_view v, WindowInfo& info) {
  if (v == "none") {
    info.ordered_accumulates = false;
    return Status::ok();
  }
  // Any non-empty subset of the four orderings keeps them all: ordering is what this
  // implementation always gives.
  std::string_view rest = v;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view part = rest.substr(0, comma);
    if (part != "rar" && part != "raw" && part != "war" && part != "waw")
      return bad(key, v, "none or a comma-separated list of rar, raw, war, waw");
    if (comma == std::string_view::npos) return Status::ok();
    rest.remove_prefix(comma + 1);
  }
}

Status parse_path_key(std::string_view key, std::string_view v, WindowInfo& info) {
  auto p = parse_path(v);
  if (!p) {
    std::string names;
    for (Path x : {Path::am, Path::direct, Path::auto_})
      names += (names.empty() ? "" : ", ") + std::string(to_string(x));
    return bad(key, v, "one of " + names);
  }
  info.path = *p;
  return Status::ok();
}

Status parse_protocol_key(std::string_view key, std::string_view v, WindowInfo& info) {
  auto p = parse_protocol(v);
  if (!p) return bad(key, v, "one of fewest, ch3");
  info.protocol = *p;
  return Status::ok();
}

Status parse_budget(std::string_view key, std::string_view v, WindowInfo& info) {
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc{} || end != v.data() + v.size() || n > (std::size_t{1} << 30))
    return bad(key, v, "a byte count from 0 to 1073741824");
  info.hold_budget = n;
  return Status::ok();
}

Status parse_fence_exchange(std::string_view key, std::string_view v, WindowInfo& info) {
  if (v == "auto")
    info.fence_exchange = FenceExchange::auto_;
  else if (v == "messages")
    info.fence_exchange = FenceExchange::messages;
  else if (v == "rounds")
    info.fence_exchange = FenceExchange::rounds;
  else
    return bad(key, v, "one of auto, messages, rounds");
  return Status::ok();
}

Status parse_region(std::string_view key, std::string_view v, WindowInfo& info) {
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc{} || end != v.data() + v.size() || n < 8 || n % 8)
    return bad(key, v, "a multiple of 8, at least 8");
  info.region_size = n;
  return Status::ok();
}

struct Key {
  std::string_view name;
  Status (*parse)(std::string_view key, std::string_view value, WindowInfo& info);
};

// Every key this implementation reads.
constexpr Key kKeys[] = {
    {"no_locks", [](auto k, auto v, WindowInfo& i) { return parse_bool(k, v, i.no_locks); }},
    {"accumulate_ordering", parse_ordering},
    {"path", parse_path_key},
    {"protocol", parse_protocol_key},
    {"hold_budget", parse_budget},
    {"fence_exchange", parse_fence_exchange},
    {"region_size", parse_region},
    {"alloc_shared_noncontig",
     [](auto k, auto v, WindowInfo& i) { return parse_bool(k, v, i.alloc_shared_noncontig); }},
};

}  // namespace

Result<WindowInfo> parse_window_info(const RuntimeConfig& rc,
                                     const std::map<std::string, std::string>& own) {
  std::map<std::string, std::string> merged = rc.window_info;
  for (const auto& [k, v] : own) merged[k] = v;
  WindowInfo info;
  info.path = rc.default_path;
  info.protocol = rc.default_protocol;
  for (const Key& key : kKeys)
    if (auto it = merged.find(std::string(key.name)); it != merged.end())
      RMA_TRY(key.parse(key.name, it->second, info));
  return info;
}

}  // namespace rma::core
