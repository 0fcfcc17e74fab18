// rma/runtime.hpp — one rank of a job: its transport to every peer, point-to-point messages,
// barrier, the progress engine, counters, and the windows it creates.
//
//   auto boot = rma::bootstrap::launcher_client(fd, rank, size);
//   auto rt = rma::Runtime::create({.backend = "shm"}, *boot);   // collective
//   if (!rt) die(rt.status());
//   (*rt)->barrier();
//   rma::Window* win = *(*rt)->create_window({.flavor = rma::Flavor::allocate, .size = 4096});
//
// A Runtime is used from one application thread (MPI_THREAD_FUNNELED); the library's own
// progress agent runs beside it. state() and counters() may be called from any thread.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rma/bootstrap.hpp"
#include "rma/counters.hpp"
#include "rma/state.hpp"
#include "rma/status.hpp"
#include "rma/types.hpp"
#include "rma/window.hpp"

namespace rma {

namespace core {
class RuntimeImpl;
}

struct RuntimeConfig {
  std::string backend = "shm";  // "shm" or "fabric"
  ProgressMode progress = ProgressMode::async;
  Path default_path = Path::am;  // a window's path when its info does not say
  Protocol default_protocol =
      Protocol::fewest;                  // a window's am protocol when its info does not say
  std::size_t eager_limit = 16 * 1024;   // larger transfers use a rendezvous (<= 64 KiB)
  std::string provider{};                // fabric: libfabric provider, "" for the default
  std::string name_prefix = "rmabench";  // prefix of every shared segment the job creates
  // Info keys for every window (a window's own info wins), e.g. {"region_size", "4096"}.
  std::map<std::string, std::string> window_info{};
};

// What a backend offers, for `rmabench info` and the capability check of the ops tables.
struct BackendInfo {
  std::string name;
  std::vector<std::string> direct_ops;  // slots its direct table overrides
};
std::vector<BackendInfo> compiled_backends();

// A libfabric provider that offers reliable-datagram (RDM) endpoints on this host, with what
// the fabric backend's direct path can use of it. One entry per provider.
struct ProviderInfo {
  std::string name;                  // "tcp;ofi_rxm"
  std::string fabric;                // the preferred (loopback) entry: "127.0.0.1/32"
  std::string domain;                // "lo"
  std::vector<std::string> domains;  // every "domain (fabric)" it offers: "eth0 (192.0.2.0/24)"
  bool rma = false;                  // FI_RMA: fi_write / fi_read
  bool atomics = false;              // FI_ATOMIC
  // Native atomics over the (op, dtype) pairs MPI allows, as {native, allowed}: accumulate,
  // fetching (get_accumulate, fetch_and_op), compare_and_swap.
  std::pair<int, int> accumulate_atomics{0, 0};
  std::pair<int, int> fetch_atomics{0, 0};
  std::pair<int, int> compare_atomics{0, 0};
  std::string missing_atomics;  // "prod(f32,f64)", or "" when every pair is native
  std::string atomics_note;     // why rmabench does not use atomics the provider offers
};
std::vector<ProviderInfo> fabric_providers();
// Whether libfabric offers `provider` (as RuntimeConfig::provider spells it, "tcp;ofi_rxm")
// reliable-datagram endpoints here: asked with the hints of fabric_providers(), looser than
// a job's endpoint asks, so that no provider a job could use is refused. UNSUPPORTED with
// libfabric's answer when not.
Status fabric_provider_available(const std::string& provider);

class Runtime {
 public:
  // Collective over every rank of the bootstrap. Fails with the reason the transport gave.
  static Result<std::unique_ptr<Runtime>> create(const RuntimeConfig& config,
                                                 bootstrap::Bootstrap& boot);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  int rank() const;
  int size() const;
  const RuntimeConfig& config() const;
  std::string transport_name() const;  // "shm", "fabric:tcp;ofi_rxm", ...
  // Largest transfer sent in one packet (config.eager_limit, capped by the transport).
  std::size_t eager_limit() const;

  // Blocking point-to-point messages, matched by source and tag in order of sending.
  Status send(int dst, const void* buf, std::size_t bytes, int tag);
  // `received` (may be null) gets the message length; TRUNCATE when it exceeds `bytes`.
  Status recv(int src, void* buf, std::size_t bytes, int tag, std::size_t* received = nullptr);
  Status barrier();

  // Collective. The window lives until free(); the Runtime keeps the object.
  Result<Window*> create_window(const WindowConfig& config);

  // Memory the runtime can share with every rank (MPI_Alloc_mem): a `create` window over
  // it may use the direct path on the shm backend.
  Result<void*> alloc_mem(std::size_t bytes);
  Status free_mem(void* base);

  Counters counters() const;
  RankState state() const;

  // Drives progress once; for harness code that waits on something outside the library.
  void poke();

  core::RuntimeImpl& impl() { return *impl_; }

 private:
  explicit Runtime(std::unique_ptr<core::RuntimeImpl> impl);
  std::unique_ptr<core::RuntimeImpl> impl_;
};

}  // namespace rma
