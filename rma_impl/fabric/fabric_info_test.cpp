// What libfabric offers here: every provider `rmabench info` lists passes the check the CLI
// makes of --provider before a run, and a name libfabric does not know fails it, named.
#include <gtest/gtest.h>

#include "rma/runtime.hpp"

namespace rma {
namespace {

TEST(FabricInfo, ListedProvidersAreAvailableAndAnUnknownOneIsNot) {
  const Status unknown = fabric_provider_available("rmabench-no-such-provider");
  EXPECT_FALSE(unknown);
  EXPECT_NE(unknown.message().find("rmabench-no-such-provider"), std::string::npos)
      << unknown.message();
  const auto providers = fabric_providers();
  if (providers.empty()) GTEST_SKIP() << "libfabric offers no RDM provider here";
  for (const auto& p : providers) EXPECT_TRUE(fabric_provider_available(p.name)) << p.name;
}

}  // namespace
}  // namespace rma
