// How an endpoint's idle thread will block, per provider: a provider whose completion queue
// has a wait object it does not name (ofi_rxd) still gets a blocking read, not timed naps;
// one whose wait object only yields (shm) still naps. A sread endpoint counts the remote
// writes its provider applies with no completion.
#include <gtest/gtest.h>
#include <rdma/fi_rma.h>

#include <cstdint>
#include <memory>

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

// Two loopback endpoints in one process: `to` registers a buffer, `from` writes 8 bytes into
// it. rxd runs its protocol only when called, so both sides' queues are read in turn.
struct WritePair {
  std::unique_ptr<Endpoint> from, to;
  std::vector<fi_addr_t> addr;
  // On the heap: the registration names its address, which a move of the pair keeps.
  std::unique_ptr<std::uint64_t> target = std::make_unique<std::uint64_t>(0);
  MemoryRegion mr;
  fi_context2 ctx{};  // the endpoints ask for FI_CONTEXT2: a write's context is theirs
};

Result<WritePair> open_pair(const char* provider) {
  WritePair p;
  auto a = open_loopback(provider);
  if (!a) return a.status();
  auto b = open_loopback(provider);
  if (!b) return b.status();
  p.from = std::move(a.value());
  p.to = std::move(b.value());
  auto name = p.to->name();
  if (!name) return name.status();
  RMA_TRY(p.from->insert({name.value()}, p.addr));
  auto mr = p.to->register_memory(p.target.get(), sizeof *p.target, FI_REMOTE_WRITE);
  if (!mr) return mr.status();
  p.mr = std::move(mr.value());
  return p;
}

// Writes `v` (rxd needs no registered local buffer) and reads both queues until the write
// completed at the origin and landed.
void write_and_drive(WritePair& p, std::uint64_t v) {
  static std::uint64_t src;  // static: outlives a write still pending if the test fails
  src = v;
  constexpr int kTries = 1000000;
  fi_cq_msg_entry e;
  bool posted = false;
  for (int i = 0; i < kTries && !posted; ++i) {
    posted = fi_write(p.from->ep(), &src, sizeof src, nullptr, p.addr[0], p.mr.remote_base(),
                      p.mr.key(), &p.ctx) == 0;
    (void)fi_cq_read(p.from->cq(), &e, 1);
  }
  ASSERT_TRUE(posted);
  bool done = false;
  for (int i = 0; i < kTries && !(done && *p.target == v); ++i) {
    if (fi_cq_read(p.from->cq(), &e, 1) == 1) done = true;
    (void)fi_cq_read(p.to->cq(), &e, 1);
  }
  EXPECT_TRUE(done);
  EXPECT_EQ(*p.target, v);
}

TEST(FabricEndpoint, UdpRxdCountsRemoteWritesThatLeaveNoCompletion) {
  auto p = open_pair("udp;ofi_rxd");
  if (!p) GTEST_SKIP() << p.status().to_string();
  WritePair& w = p.value();
  if (!w.from->has_rma()) GTEST_SKIP() << "no RMA";
  ASSERT_EQ(w.to->wait_mode(), WaitMode::sread);
  EXPECT_EQ(w.to->remote_accesses(), 0u);
  write_and_drive(w, 7);
  EXPECT_EQ(w.to->remote_accesses(), 1u);
  write_and_drive(w, 8);
  EXPECT_EQ(w.to->remote_accesses(), 2u);
  EXPECT_EQ(w.from->remote_accesses(), 0u) << "the writer's memory was not accessed";
}

}  // namespace
}  // namespace rma::fabric
