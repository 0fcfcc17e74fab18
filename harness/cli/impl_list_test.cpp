#include "cli/impl_list.hpp"

#include <gtest/gtest.h>

#include "suite/manifest.hpp"

namespace harness::cli {
namespace {

using V = std::vector<std::string>;

TEST(ImplList, SplitsAtCommasKeepingAnMpisOptionsTogether) {
  EXPECT_EQ(split_impl_list("ref"), (V{"ref"}));
  EXPECT_EQ(split_impl_list("ref,mpich,openmpi"), (V{"ref", "mpich", "openmpi"}));
  EXPECT_EQ(split_impl_list("ref,openmpi:osc=sm,openmpi:osc=rdma,mpich"),
            (V{"ref", "openmpi:osc=sm", "openmpi:osc=rdma", "mpich"}));
  // A key=value after an option list continues it.
  EXPECT_EQ(split_impl_list("openmpi:osc=sm,x=y,ref"), (V{"openmpi:osc=sm,x=y", "ref"}));
}

TEST(ImplList, RejectsEmptyNamesAndRepeats) {
  EXPECT_THROW(split_impl_list("ref,,mpich"), suite::UsageError);
  EXPECT_THROW(split_impl_list("ref,"), suite::UsageError);
  EXPECT_THROW(split_impl_list("mpich,ref,mpich"), suite::UsageError);
}

TEST(ImplList, ScopedLauncherValuesGoToTheirMpiOnly) {
  const V listed{"ref", "mpich", "openmpi:osc=sm"};
  const V env{"A=1", "mpich:B=2", "openmpi:C=3"};
  EXPECT_EQ(scoped_values(env, "mpich", listed), (V{"A=1", "B=2"}));
  EXPECT_EQ(scoped_values(env, "openmpi", listed), (V{"A=1", "C=3"}));
  // A colon that names no listed MPI is part of the value.
  EXPECT_EQ(scoped_values({"--map-by ppr:1:core"}, "openmpi", listed), (V{"--map-by ppr:1:core"}));
}

TEST(ImplList, TheReferenceAloneTakesNoLauncherValues) {
  EXPECT_EQ(resolve_impl_list("ref", {}, {}).size(), 1u);
  EXPECT_FALSE(resolve_impl_list("ref", {}, {}).front().mpi.has_value());
  EXPECT_THROW(resolve_impl_list("ref", {"--mca osc sm"}, {}), suite::UsageError);
  EXPECT_THROW(resolve_impl_list("ref,nosuchmpi", {}, {}), suite::UsageError);
}

}  // namespace
}  // namespace harness::cli
