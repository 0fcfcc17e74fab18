// mpi_call_slot_test.cpp — the MPI worker's call slot without an MPI: what a state dump reads
// of the call in progress, and that the watcher, not the caller, gives the call its age.
#include "mpi/mpi_call_slot.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace harness::mpi {
namespace {

TEST(MpiCallSlot, ACallIsSeenWithItsWindowAndTargetUntilItIsLeft) {
  CallSlot slot;
  EXPECT_EQ(slot.snapshot().call, "");
  {
    Tracked t(slot, "MPI_Win_lock", 3, 1);
    const rma::CallState s = slot.snapshot();
    EXPECT_EQ(s.call, "MPI_Win_lock");
    EXPECT_EQ(s.window, 3);
    EXPECT_EQ(s.target, 1);
    EXPECT_FALSE(s.blocked);  // just entered
  }
  EXPECT_EQ(slot.snapshot().call, "");
  EXPECT_FALSE(slot.snapshot().blocked);
}

// The age of a call comes from the watcher thread: it grows once the watcher has seen the
// call, and a new call starts from zero again. (No bound on how fast: only that it happens.)
TEST(MpiCallSlot, TheWatcherGivesACallItsAge) {
  CallSlot slot;
  slot.enter("MPI_Win_wait", 1, -2);
  double age = 0;
  for (int i = 0; i < 1000 && age <= 0; ++i) {
    std::this_thread::sleep_for(CallSlot::kWatchPeriod);
    age = slot.snapshot().since_s;
  }
  EXPECT_GT(age, 0) << "the watcher never saw the call";
  slot.leave();
  slot.enter("MPI_Win_post", 1, -2);
  const rma::CallState s = slot.snapshot();
  EXPECT_EQ(s.call, "MPI_Win_post");
  EXPECT_FALSE(s.blocked);  // a new call: the earlier one's age is not carried over
  slot.leave();
}

}  // namespace
}  // namespace harness::mpi
