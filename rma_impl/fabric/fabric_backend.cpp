// Window memory for the fabric direct path: registered with fi_mr_reg, addresses and keys
// exchanged with the runtime's allgather; control messages routed to their window.
#include "fabric/fabric_backend.hpp"

#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

#include "core/memory.hpp"
#include "core/runtime_impl.hpp"
#include "fabric/fabric_win.hpp"

namespace rma::fabric {
namespace {

class FabricBackend final : public core::Backend, public ControlSink {
 public:
  FabricBackend(core::RuntimeImpl& rt, FabricTransport& t)
      : rt_(rt), t_(t), atomics_(query_atomics(t.endpoint().domain(), t.endpoint().provider())) {
    const Endpoint& ep = t.endpoint();
    usable_ = ep.has_rma() && !ep.local_mr();
    t_.set_control_sink(this);
  }
  ~FabricBackend() override { t_.set_control_sink(nullptr); }

  bool can_map(const WindowConfig& cfg, const core::WindowInfo& info) const override {
    if (cfg.flavor == Flavor::shared || cfg.flavor == Flavor::dynamic) return false;
    // Without RMA an explicit request still reaches map_window, which says why it fails;
    // `auto` quietly stays on am.
    return usable_ || info.path == Path::direct;
  }

  Status map_window(core::Call& c, const WindowConfig& cfg, const core::WindowInfo& info,
                    bool direct) override;

  Result<void*> alloc_mem(std::size_t bytes) override { return allocs_.alloc(bytes); }
  Status free_mem(void* base) override { return allocs_.free(base); }

  void control(int src, std::span<const std::byte> msg) override {
    if (msg.size() < sizeof(Control)) return;
    Control m;
    std::memcpy(&m, msg.data(), sizeof m);
    auto it = wins_.find(m.win);
    if (it != wins_.end()) it->second->on_control(src, msg);
  }

 private:
  core::RuntimeImpl& rt_;
  FabricTransport& t_;
  AtomicTable atomics_;
  bool usable_ = false;
  std::map<std::uint32_t, FabricWin*> wins_;
  LockEpochs lock_epochs_;  // this rank's, over all its direct windows
  core::AllocMem allocs_;
};

Status FabricBackend::map_window(core::Call& c, const WindowConfig& cfg, const core::WindowInfo&,
                                 bool direct) {
  core::Win& w = c.w;
  Endpoint& ep = t_.endpoint();
  if (!direct) return {ErrorClass::intern, "fabric backend: only the direct path maps memory"};
  if (!usable_)
    return {
        ErrorClass::unsupported,
        "window: the direct path needs RMA from the fabric provider (FI_RMA, no FI_MR_LOCAL); " +
            ep.provider() + " on " + ep.domain_name() +
            (ep.has_rma() ? " wants local buffers registered" : " has no FI_RMA")};

  auto state = std::make_unique<FabricWin>(w, t_, atomics_);
  // Registered before the exchange: once a peer has our key it may send control messages.
  state->registry = &wins_;
  state->epochs = &lock_epochs_;
  wins_[w.id] = state.get();

  std::shared_ptr<void> memory;
  std::byte* base = static_cast<std::byte*>(cfg.base);
  if (cfg.flavor == Flavor::allocate) {
    memory = core::zeroed_memory(cfg.size);
    base = static_cast<std::byte*>(memory.get());
  }
  // A local failure travels in the exchange, so every rank fails the same way.
  std::string mine;
  if (cfg.flavor == Flavor::allocate && !memory) {
    mine = "error cannot allocate " + std::to_string(cfg.size) + " bytes";
  } else if (cfg.size > 0) {
    auto mr =
        ep.register_memory(base, cfg.size, FI_REMOTE_READ | FI_REMOTE_WRITE | FI_READ | FI_WRITE);
    if (!mr) {
      mine = "error " + mr.status().message();
    } else {
      state->mr = std::move(mr.value());
      mine = "ok " + std::to_string(state->mr.remote_base()) + " " +
             std::to_string(state->mr.key()) + " " +
             std::to_string(reinterpret_cast<std::uint64_t>(base));
    }
  } else {
    mine = "ok 0 0 0";
  }
  // In place before the exchange: a peer that leaves it first may send an op falling back
  // to the am slots at once.
  if (cfg.flavor == Flavor::allocate) {
    w.base = base;
    w.memory = std::move(memory);
  }
  auto all = rt_.p2p().allgather(c.lk, mine);
  if (!all) return all.status();
  for (std::size_t r = 0; r < all->size(); ++r) {
    std::istringstream in((*all)[r]);
    std::string tag;
    in >> tag;
    if (tag != "ok") {
      std::string why;
      std::getline(in, why);
      return {ErrorClass::other, "window: rank " + std::to_string(r) +
                                     " could not register its memory for the direct path:" + why};
    }
    FabricWin::Peer& p = state->peers[r];
    in >> p.addr >> p.key >> p.vaddr;
  }
  w.backend = std::move(state);
  return Status::ok();
}

}  // namespace

std::unique_ptr<core::Backend> make_backend(core::RuntimeImpl& rt) {
  auto& t = static_cast<FabricTransport&>(rt.engine().transport());
  return std::make_unique<FabricBackend>(rt, t);
}

}  // namespace rma::fabric
