// runtime_impl.hpp — what a rank's Runtime is made of: the transport under the progress
// engine, point-to-point messaging, bulk transfers, the call tracker, and the windows.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "core/backend.hpp"
#include "core/bulk.hpp"
#include "core/call_tracker.hpp"
#include "core/engine.hpp"
#include "core/p2p.hpp"
#include "core/win.hpp"
#include "rma/runtime.hpp"

namespace rma::core {

class RuntimeImpl {
 public:
  RuntimeImpl(const RuntimeConfig& config, std::unique_ptr<Transport> transport);
  ~RuntimeImpl();

  int rank() const { return engine_.rank(); }
  int size() const { return engine_.size(); }
  const RuntimeConfig& config() const { return config_; }
  std::size_t eager_limit() const { return eager_limit_; }

  Engine& engine() { return engine_; }
  CallTracker& calls() { return calls_; }
  BulkRegistry& bulk() { return bulk_; }
  P2p& p2p() { return p2p_; }

  // Rank and argument checks shared by every call that names a peer.
  Status check_peer(const char* call, int peer, bool allow_proc_null) const {
    if ((peer == proc_null && allow_proc_null) || (peer >= 0 && peer < size())) return Status::ok();
    return peer_error(call, peer);
  }
  Status peer_error(const char* call, int peer) const;

  // Collective (window_create.cpp).
  Result<rma::Window*> create_window(const WindowConfig& config);
  // After a successful free: the window answers WIN from now on, packets for it are dropped.
  void forget_window(Win& w);
  std::vector<WindowState> window_states();

  Result<void*> alloc_mem(std::size_t bytes);
  Status free_mem(void* base);

  // The backend's window support (shared memory, direct table); may be null.
  void set_backend(std::unique_ptr<Backend> b) { backend_ = std::move(b); }
  Backend* backend() { return backend_.get(); }

 private:
  RuntimeConfig config_;
  CallTracker calls_;
  Engine engine_;
  std::size_t eager_limit_;
  BulkRegistry bulk_;
  P2p p2p_;
  std::unique_ptr<Backend> backend_;
  std::vector<std::unique_ptr<rma::Window>> windows_;  // index = window id
  std::map<void*, std::shared_ptr<void>> alloc_mem_;

  void on_rma(int src, const PacketHeader& h, std::span<const std::byte> payload);
};

}  // namespace rma::core
