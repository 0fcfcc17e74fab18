// Recorded /dev/shm names: unlink_pending_names() removes exactly the names still recorded,
// so a process killed between a segment's creation and its unlink leaves nothing behind.
#include "rma/pending_names.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace rma {
namespace {

std::string name(const char* tag) {
  return "/rma_impl_test." + std::to_string(::getpid()) + "." + tag;
}

bool exists(const std::string& n) {
  return std::filesystem::exists("/dev/shm" + n);
}

void create(const std::string& n) {
  const int fd = ::shm_open(n.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  ASSERT_GE(fd, 0) << n;
  ::close(fd);
}

TEST(PendingNames, OnlyTheNamesStillRecordedAreUnlinked) {
  const std::string kept = name("kept"), recorded = name("recorded"), removed = name("removed");
  for (const auto& n : {kept, recorded, removed}) create(n);
  add_pending_name(recorded);
  add_pending_name(removed);
  remove_pending_name(removed);
  unlink_pending_names();
  EXPECT_FALSE(exists(recorded));
  EXPECT_TRUE(exists(removed));  // its owner unlinks it itself; no longer ours to remove
  EXPECT_TRUE(exists(kept));
  ::shm_unlink(kept.c_str());
  ::shm_unlink(removed.c_str());
  remove_pending_name(recorded);
}

TEST(PendingNames, SlotsAreReusedAfterRemoval) {
  // More names over a process's life than it has slots: each removal frees its slot.
  for (int i = 0; i < 100; ++i) {
    const std::string n = name(("cycle" + std::to_string(i)).c_str());
    create(n);
    add_pending_name(n);
    if (i == 99) {
      unlink_pending_names();
      EXPECT_FALSE(exists(n));
    } else {
      ::shm_unlink(n.c_str());
      remove_pending_name(n);
    }
  }
  remove_pending_name(name("cycle99"));
}

}  // namespace
}  // namespace rma
