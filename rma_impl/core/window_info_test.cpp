// Window info keys, parsed once: defaults, the runtime's keys under the window's own, and a
// bad value is an INFO error that names the key and the value.
#include "core/window_info.hpp"

#include <gtest/gtest.h>

#include "rma/runtime.hpp"

namespace rma::core {
namespace {

TEST(WindowInfo, DefaultsWithoutKeys) {
  auto info = parse_window_info(RuntimeConfig{.default_path = Path::auto_}, {});
  ASSERT_TRUE(info) << info.status().to_string();
  EXPECT_FALSE(info->no_locks);
  EXPECT_TRUE(info->ordered_accumulates);
  EXPECT_EQ(info->path, Path::auto_);
  EXPECT_EQ(info->region_size, 4096u);
  EXPECT_FALSE(info->alloc_shared_noncontig);
  EXPECT_EQ(info->protocol, Protocol::fewest);
  EXPECT_EQ(info->hold_budget, 64u * 1024);
  EXPECT_EQ(info->fence_exchange, FenceExchange::auto_);
}

TEST(WindowInfo, EveryKeyIsRead) {
  auto info = parse_window_info(RuntimeConfig{}, {{"no_locks", "true"},
                                                  {"accumulate_ordering", "none"},
                                                  {"path", "direct"},
                                                  {"region_size", "64"},
                                                  {"alloc_shared_noncontig", "true"},
                                                  {"protocol", "ch3"},
                                                  {"hold_budget", "16384"},
                                                  {"fence_exchange", "rounds"}});
  ASSERT_TRUE(info) << info.status().to_string();
  EXPECT_TRUE(info->no_locks);
  EXPECT_FALSE(info->ordered_accumulates);
  EXPECT_EQ(info->path, Path::direct);
  EXPECT_EQ(info->region_size, 64u);
  EXPECT_TRUE(info->alloc_shared_noncontig);
  EXPECT_EQ(info->protocol, Protocol::ch3);
  EXPECT_EQ(info->hold_budget, 16384u);
  EXPECT_EQ(info->fence_exchange, FenceExchange::rounds);
}

TEST(WindowInfo, TheRuntimesDefaultProtocolYieldsToTheWindows) {
  RuntimeConfig rc;
  rc.default_protocol = Protocol::ch3;
  auto info = parse_window_info(rc, {});
  ASSERT_TRUE(info) << info.status().to_string();
  EXPECT_EQ(info->protocol, Protocol::ch3);
  info = parse_window_info(rc, {{"protocol", "fewest"}});
  ASSERT_TRUE(info) << info.status().to_string();
  EXPECT_EQ(info->protocol, Protocol::fewest);
}

TEST(WindowInfo, TheWindowsOwnKeysWinOverTheRuntimes) {
  RuntimeConfig rc;
  rc.window_info = {{"region_size", "128"}, {"path", "direct"}};
  auto info = parse_window_info(rc, {{"path", "am"}});
  ASSERT_TRUE(info) << info.status().to_string();
  EXPECT_EQ(info->path, Path::am);
  EXPECT_EQ(info->region_size, 128u);
}

TEST(WindowInfo, AnOrderingListKeepsAccumulatesOrdered) {
  auto info = parse_window_info(RuntimeConfig{}, {{"accumulate_ordering", "rar,waw"}});
  ASSERT_TRUE(info) << info.status().to_string();
  EXPECT_TRUE(info->ordered_accumulates);
}

TEST(WindowInfo, ABadValueNamesKeyAndValue) {
  const std::pair<const char*, const char*> bad[] = {
      {"no_locks", "maybe"},           {"accumulate_ordering", "rw"},
      {"accumulate_ordering", "rar,"}, {"path", "sideways"},
      {"region_size", "12"},           {"region_size", "4096x"},
      {"alloc_shared_noncontig", "1"}, {"protocol", "mpich"},
      {"hold_budget", "-1"},           {"fence_exchange", "fastest"}};
  for (const auto& [key, value] : bad) {
    auto info = parse_window_info(RuntimeConfig{}, {{key, value}});
    ASSERT_FALSE(info) << key << "=" << value;
    EXPECT_EQ(info.status().error_class(), ErrorClass::info);
    EXPECT_NE(info.status().message().find(std::string(key) + "=" + value), std::string::npos)
        << info.status().message();
  }
}

TEST(WindowInfo, UnknownKeysAreIgnored) {
  EXPECT_TRUE(parse_window_info(RuntimeConfig{}, {{"no_such_key", "whatever"}}));
}

}  // namespace
}  // namespace rma::core
