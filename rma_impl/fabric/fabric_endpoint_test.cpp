// How an endpoint's idle thread will block, per provider: a provider whose completion queue
// has a wait object it does not name (ofi_rxd) still gets a blocking read, not timed naps;
// one whose wait object only yields (shm) still naps.
#include <gtest/gtest.h>

#include "fabric/fabric_endpoint.hpp"

namespace rma::fabric {
namespace {

Result<std::unique_ptr<Endpoint>> open_loopback(const char* provider) {
  auto a = api();
  if (!a) return a.status();
  return Endpoint::open(*a.value(), {.provider = provider, .loopback = true});
}

TEST(FabricEndpoint, UdpRxdBlocksInsideTheProvidersRead) {
  auto ep = open_loopback("udp;ofi_rxd");
  if (!ep) GTEST_SKIP() << ep.status().to_string();
  EXPECT_EQ(ep.value()->wait_mode(), WaitMode::sread) << to_string(ep.value()->wait_mode());
}

TEST(FabricEndpoint, TcpRxmKeepsItsDescriptor) {
  auto ep = open_loopback("tcp;ofi_rxm");
  if (!ep) GTEST_SKIP() << ep.status().to_string();
  EXPECT_EQ(ep.value()->wait_mode(), WaitMode::fd) << to_string(ep.value()->wait_mode());
}

// Its wait object only yields: a read that spins is worse than a nap.
TEST(FabricEndpoint, ShmNapsRatherThanSpinInsideTheRead) {
  auto ep = open_loopback("shm");
  if (!ep) GTEST_SKIP() << ep.status().to_string();
  EXPECT_EQ(ep.value()->wait_mode(), WaitMode::none) << to_string(ep.value()->wait_mode());
}

}  // namespace
}  // namespace rma::fabric
