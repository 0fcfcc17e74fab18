// Case ids: the provider is part of a fabric case's id only, so a shm case keeps its id (and
// its match in a baseline) in a run that names a provider for its fabric cases.
#include "suite/case_spec.hpp"

#include <gtest/gtest.h>

namespace harness::suite {
namespace {

TEST(CaseId, TheProviderNamesOnlyAFabricCase) {
  CaseSpec c;
  c.stem = "examples/hello";
  c.ranks = 2;
  c.provider = "tcp;ofi_rxm";
  c.backend = "fabric";
  EXPECT_EQ(make_case_id(c), "examples/hello[fabric:tcp;ofi_rxm,am,np=2]");
  c.backend = "shm";
  EXPECT_EQ(make_case_id(c), "examples/hello[shm,am,np=2]");
  c.provider.clear();
  c.backend = "fabric";
  EXPECT_EQ(make_case_id(c), "examples/hello[fabric,am,np=2]");
}

}  // namespace
}  // namespace harness::suite
