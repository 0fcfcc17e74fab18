// What each compiled backend serves on its direct path, read from its table: the slots that
// differ from the am table's, which is what `rmabench info` and compiled_backends() list. A
// slot a backend leaves alone is the am slot itself, so no table has an empty slot.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "am/am_ops.hpp"
#include "registry/backends.hpp"

namespace rma {
namespace {

std::vector<std::string> every_slot() {
  std::vector<std::string> all;
#define RMA_NAME_SLOT(s) all.emplace_back(#s);
  RMA_WINDOW_SLOTS(RMA_NAME_SLOT)
#undef RMA_NAME_SLOT
  return all;
}

const registry::BackendEntry& entry(std::string_view name) {
  const registry::BackendEntry* b = registry::find_backend(name);
  EXPECT_NE(b, nullptr) << name;
  return *b;
}

TEST(Registry, AmTableFillsEverySlot) {
  EXPECT_TRUE(core::empty_slots(am::am_ops()).empty());
  EXPECT_TRUE(core::overridden_slots(am::am_ops(), am::am_ops()).empty());
}

TEST(Registry, AnEmptySlotIsNamed) {
  core::WindowOps t = am::am_ops();
  t.flush_local = nullptr;
  EXPECT_EQ(core::empty_slots(t), std::vector<std::string>{"flush_local"});
}

// Both direct paths serve every call themselves; what they cannot do natively (fabric: an
// (op, dtype) the provider lacks) they pass to the am slots inside their own slots.
TEST(Registry, ShmAndFabricDirectTablesServeEverySlot) {
  for (std::string_view name : {"shm", "fabric"}) {
    const core::WindowOps& t = entry(name).direct_ops();
    EXPECT_TRUE(core::empty_slots(t).empty()) << name;
    EXPECT_EQ(core::overridden_slots(t, am::am_ops()), every_slot()) << name;
  }
}

TEST(Registry, CompiledBackendsListWhatTheTablesServe) {
  const auto listed = compiled_backends();
  ASSERT_EQ(listed.size(), registry::backends().size());
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const registry::BackendEntry& b = registry::backends()[i];
    EXPECT_EQ(listed[i].name, b.name);
    EXPECT_EQ(listed[i].direct_ops, core::overridden_slots(b.direct_ops(), am::am_ops()));
  }
}

TEST(Registry, UnknownBackendNamesTheChoices) {
  EXPECT_EQ(registry::find_backend("carrier-pigeon"), nullptr);
  EXPECT_EQ(registry::backend_names(), "shm, fabric");
}

}  // namespace
}  // namespace rma
