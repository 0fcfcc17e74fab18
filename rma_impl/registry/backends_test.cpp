// What each compiled backend serves on its direct path, read from its table: the slots that
// differ from the am table's, which is what `rmabench info` and compiled_backends() list, and
// which of them are the generic layer's synchronization rather than the backend's own. A
// slot a backend leaves alone is the am slot itself, so no table has an empty slot.
#include <gtest/gtest.h>

#include <algorithm>
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

// The contract of a direct table: fence, PSCW, the flushes and the lock epochs are the
// generic layer's (core/direct_sync.hpp), the same functions for every backend, over the
// backend's primitives; the backend writes its data slots, sync, requests and free. What it
// cannot do natively (fabric: an (op, dtype) the provider lacks) it passes to the am slots
// inside its own slots, so every slot still differs from am's. A backend may have the
// generic lock and unlock compiled with its acquire and release inlined (core/direct_lock.hpp,
// which marks it): those two are then other functions of the same code.
const std::vector<std::string> kGenericSlots = {
    "fence",  "post",     "start",      "complete", "wait",        "test",      "lock",
    "unlock", "lock_all", "unlock_all", "flush",    "flush_local", "flush_all", "flush_local_all"};

TEST(Registry, DirectTablesRunTheGenericSynchronizationOverTheirPrimitives) {
  for (std::string_view name : {"shm", "fabric"}) {
    const core::WindowOps& t = entry(name).direct_ops();
    EXPECT_TRUE(core::empty_slots(t).empty()) << name;
    EXPECT_TRUE(core::missing_primitives(t).empty()) << name;
    EXPECT_EQ(core::overridden_slots(t, am::am_ops()), every_slot()) << name;
    // Against the generic layer over the same primitives, only the backend's own slots differ.
    const core::WindowOps generic = core::with_direct_sync(am::am_ops(), t.direct_sync);
    std::vector<std::string> own = every_slot();
    const bool inlined = t.direct_sync.inlined_locks;
    std::erase_if(own, [&](const std::string& s) {
      if (inlined && (s == "lock" || s == "unlock")) return false;
      return std::find(kGenericSlots.begin(), kGenericSlots.end(), s) != kGenericSlots.end();
    });
    EXPECT_EQ(core::overridden_slots(t, generic), own) << name;
  }
}

// shm's signals are words in mapped memory and its ops complete in their call; fabric's are
// control messages, and its native ops complete later.
TEST(Registry, DirectPrimitivesSayHowSignalsTravel) {
  const core::DirectSync& shm = entry("shm").direct_ops().direct_sync;
  EXPECT_EQ(shm.signals, core::SignalPath::shared_words);
  EXPECT_EQ(shm.complete_ops, nullptr);
  EXPECT_TRUE(shm.inlined_locks);  // its lock word's atomics in the generic slots' frame
  const core::DirectSync& fabric = entry("fabric").direct_ops().direct_sync;
  EXPECT_EQ(fabric.signals, core::SignalPath::messages);
  EXPECT_NE(fabric.complete_ops, nullptr);
  EXPECT_FALSE(fabric.inlined_locks);
}

// shm's lock epochs are its locks, and it does every op itself; fabric defers the epoch a
// rank opens holding no other lock, and passes what the provider lacks to the am slots.
TEST(Registry, DirectPrimitivesSayWhatALockEpochIs) {
  const core::DirectSync& shm = entry("shm").direct_ops().direct_sync;
  EXPECT_EQ(shm.lock_epoch, nullptr);
  EXPECT_FALSE(shm.falls_back);
  const core::DirectSync& fabric = entry("fabric").direct_ops().direct_sync;
  EXPECT_NE(fabric.lock_epoch, nullptr);
  EXPECT_TRUE(fabric.falls_back);
}

TEST(Registry, AGenericTableWithoutPrimitivesIsNamed) {
  EXPECT_TRUE(core::missing_primitives(am::am_ops()).empty());  // am needs none
  const core::WindowOps t = core::with_direct_sync(am::am_ops(), core::DirectSync{});
  EXPECT_EQ(core::missing_primitives(t),
            (std::vector<std::string>{"notify", "received", "barrier", "acquire", "release"}));
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
