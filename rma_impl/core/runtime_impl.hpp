// runtime_impl.hpp — what a rank's Runtime is made of: the transport under the progress
// engine, point-to-point messaging, bulk transfers, the call tracker, and the windows.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "core/backend.hpp"
#include "core/memory.hpp"
#include "core/win.hpp"
#include "core/window_ops.hpp"
#include "progress/bulk.hpp"
#include "progress/call_tracker.hpp"
#include "progress/engine.hpp"
#include "progress/p2p.hpp"
#include "rma/runtime.hpp"

namespace rma::core {

class RuntimeImpl {
 public:
  // `protocol` is the packet protocol every window runs (am::protocol(), from the registry).
  RuntimeImpl(const RuntimeConfig& config, std::unique_ptr<progress::Transport> transport,
              const Protocol& protocol);
  ~RuntimeImpl();

  int rank() const { return engine_.rank(); }
  int size() const { return engine_.size(); }
  const RuntimeConfig& config() const { return config_; }
  std::size_t eager_limit() const { return eager_limit_; }

  progress::Engine& engine() { return engine_; }
  progress::CallTracker& calls() { return calls_; }
  progress::BulkRegistry& bulk() { return bulk_; }
  progress::P2p& p2p() { return p2p_; }

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

  // The backend's window support (shared memory) and its direct table (null: none).
  void set_backend(std::unique_ptr<Backend> b, const WindowOps* direct) {
    backend_ = std::move(b);
    direct_ops_ = direct;
  }
  Backend* backend() { return backend_.get(); }
  const Protocol& protocol() const { return protocol_; }

 private:
  RuntimeConfig config_;
  progress::CallTracker calls_;
  progress::Engine engine_;
  std::size_t eager_limit_;
  progress::BulkRegistry bulk_;
  progress::P2p p2p_;
  const Protocol& protocol_;
  std::unique_ptr<Backend> backend_;
  const WindowOps* direct_ops_ = nullptr;
  std::vector<std::unique_ptr<rma::Window>> windows_;  // index = window id
  AllocMem alloc_mem_;

  // The one place a window's table is installed, and its path derived from it.
  Status install_table(Win& w, bool direct);
  void on_rma(int src, const progress::PacketHeader& h, std::span<const std::byte> payload);
};

}  // namespace rma::core
