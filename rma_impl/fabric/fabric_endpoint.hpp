// fabric_endpoint.hpp — one rank's libfabric objects: the provider entry chosen for the job,
// its fabric and domain, a completion queue with a wait object, an address vector and an RDM
// endpoint (in sread mode with a counter of remote accesses, where the provider offers one),
// plus memory registration in whatever mode the provider asks for.
//
//   auto ep = Endpoint::open(api, {.provider = "tcp;ofi_rxm", .loopback = true});
//   auto me = (*ep)->name();                       // to publish through the bootstrap
//   (*ep)->insert(all_names, addrs);               // every rank's fi_addr_t, in rank order
//   auto mr = (*ep)->register_memory(base, len, FI_REMOTE_WRITE | FI_REMOTE_READ);
//
// Capabilities are asked for in decreasing order (messages + RMA + atomics, then messages +
// RMA, then messages only) and with send-after-send ordering first, so a provider that lacks
// something still gives an endpoint and says what it lacks.
#pragma once

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fabric/fabric_api.hpp"
#include "fabric/fabric_fid.hpp"
#include "rma/status.hpp"

namespace rma::fabric {

// How an idle thread blocks on the completion queue: on its file descriptor (with epoll and
// fi_trywait), inside fi_cq_sread (ofi_rxd: its read runs the reliability protocol as
// datagrams land, so a target asleep there still answers remote writes), or not at all
// (timed naps) when the provider has neither.
enum class WaitMode { fd, sread, none };
const char* to_string(WaitMode m);

struct EndpointOptions {
  std::string provider;   // e.g. "tcp;ofi_rxm"
  bool loopback = false;  // every rank is on this host: use the loopback interface
  std::size_t cq_size = 4096;
  std::size_t av_size = 64;
};

// Registered memory: the descriptor for local use, and what a peer needs to reach it.
class MemoryRegion {
 public:
  MemoryRegion() = default;
  void* desc() const { return desc_; }
  std::uint64_t key() const { return key_; }
  // The address a peer puts in its RMA calls for `base`: the virtual address when the
  // provider wants virtual addresses (FI_MR_VIRT_ADDR), else the offset 0.
  std::uint64_t remote_base() const { return remote_base_; }
  explicit operator bool() const { return static_cast<bool>(mr_); }

 private:
  friend class Endpoint;
  Fid<fid_mr> mr_;
  void* desc_ = nullptr;
  std::uint64_t key_ = 0;
  std::uint64_t remote_base_ = 0;
};

class Endpoint {
 public:
  static Result<std::unique_ptr<Endpoint>> open(const Api& api, const EndpointOptions& o);
  ~Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  const Api& api() const { return api_; }
  const fi_info& info() const { return *info_; }
  fid_fabric* fabric() const { return fabric_.get(); }
  fid_domain* domain() const { return domain_.get(); }
  fid_cq* cq() const { return cq_.get(); }
  fid_ep* ep() const { return ep_.get(); }

  std::string provider() const;  // "tcp;ofi_rxm"
  std::string domain_name() const;
  WaitMode wait_mode() const { return wait_mode_; }
  // How many peers' RMA accesses the provider has applied to this rank's memory: traffic
  // that leaves no completion. Counted in sread mode only, where the provider offers an
  // FI_RMA_EVENT counter; 0 elsewhere. Reading it runs the provider's progress.
  std::uint64_t remote_accesses() const;
  int wait_fd() const { return wait_fd_; }
  // The provider promised send-after-send order (FI_ORDER_SAS) on this endpoint.
  bool ordered() const { return ordered_ >= 1; }
  // ... and also keeps atomics to one target in order (read/write after read/write).
  bool ordered_atomics() const { return ordered_ >= 2; }
  bool has_rma() const;
  bool has_atomics() const;
  // Local buffers must be registered (FI_MR_LOCAL).
  bool local_mr() const;
  bool manual_progress() const;

  // This endpoint's address, as bytes.
  Result<std::string> name() const;
  // Inserts every rank's address (in rank order); out[r] is rank r's fi_addr_t.
  Status insert(const std::vector<std::string>& names, std::vector<fi_addr_t>& out);

  Result<MemoryRegion> register_memory(void* base, std::size_t len, std::uint64_t access);

  // Closes the endpoint alone (cancelling its posted receives) so that the buffers they
  // point into, and their registrations, can go before the domain does.
  void close_endpoint() { ep_.reset(); }

 private:
  explicit Endpoint(const Api& api) : api_(api) {}
  Status open_queues(const EndpointOptions& o);
  void count_remote_access();

  const Api& api_;
  fi_info* info_ = nullptr;
  Fid<fid_fabric> fabric_;
  Fid<fid_domain> domain_;
  Fid<fid_cq> cq_;
  Fid<fid_av> av_;
  Fid<fid_ep> ep_;
  Fid<fid_cntr> remote_access_;  // remote reads and writes applied here; may be absent
  WaitMode wait_mode_ = WaitMode::none;
  int wait_fd_ = -1;
  int ordered_ = 0;  // 2: SAS and atomic orders, 1: SAS, 0: none
  std::uint64_t next_key_ = 1;
};

}  // namespace rma::fabric
