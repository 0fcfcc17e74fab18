// The public Runtime: backend selection at creation, point-to-point calls with their
// argument checks, counters and state snapshots.
#include "rma/runtime.hpp"

#include <algorithm>

#include "core/runtime_impl.hpp"
#include "core/window_ops.hpp"
#include "fabric/fabric_backend.hpp"
#include "fabric/fabric_transport.hpp"
#include "fabric/fabric_window.hpp"
#include "shm/shm_backend.hpp"
#include "shm/shm_transport.hpp"
#include "shm/shm_window.hpp"

namespace rma {
namespace core {

RuntimeImpl::RuntimeImpl(const RuntimeConfig& config, std::unique_ptr<Transport> transport)
    : config_(config),
      engine_(std::move(transport), config.progress, calls_),
      eager_limit_(std::min(config.eager_limit, engine_.max_payload())),
      p2p_(engine_, bulk_, eager_limit_) {
  engine_.on(PacketType::data, [this](int src, const PacketHeader& h,
                                      std::span<const std::byte> p) { bulk_.handle(src, h, p); });
  for (int i = 0; i < packet_type_count; ++i) {
    const auto t = static_cast<PacketType>(i);
    if (class_of(t) == PacketClass::rma)
      engine_.on(t, [this](int src, const PacketHeader& h, std::span<const std::byte> p) {
        on_rma(src, h, p);
      });
  }
}

RuntimeImpl::~RuntimeImpl() {
  // The agent must not run while the windows it serves are destroyed.
  engine_.stop_agent();
}

Status RuntimeImpl::peer_error(const char* call, int peer) const {
  return {ErrorClass::rank, std::string(call) + ": rank " + std::to_string(peer) +
                                " is not in 0.." + std::to_string(size() - 1)};
}

}  // namespace core

namespace {

constexpr std::size_t kMaxEagerLimit = 64 * 1024;

Result<std::unique_ptr<core::Transport>> make_transport(const RuntimeConfig& config,
                                                        bootstrap::Bootstrap& boot) {
  if (config.backend == "shm") return shm::create_transport(boot, config);
  if (config.backend == "fabric") return fabric::create_transport(boot, config);
  return Status{ErrorClass::arg, "unknown backend '" + config.backend + "' (shm, fabric)"};
}

}  // namespace

std::vector<BackendInfo> compiled_backends() {
  return {{"shm", shm::direct_slots()}, {"fabric", fabric::direct_slots()}};
}

namespace {

// The startup check: the slots a backend says it serves are exactly those its direct table
// overrides, and no slot of any table is empty.
Status check_backend(core::Backend& b) {
  const core::WindowOps* t = b.direct_ops();
  if (!t) return Status::ok();
  if (auto empty = core::empty_slots(*t); !empty.empty())
    return {ErrorClass::intern, "backend " + b.name() + ": empty slot " + empty.front()};
  auto served = core::overridden_slots(*t, core::am_ops());
  auto declared = b.declared_slots();
  std::sort(served.begin(), served.end());
  std::sort(declared.begin(), declared.end());
  if (served != declared)
    return {ErrorClass::intern, "backend " + b.name() +
                                    ": the slots it declares differ from those its table fills"};
  return Status::ok();
}

}  // namespace

Runtime::Runtime(std::unique_ptr<core::RuntimeImpl> impl) : impl_(std::move(impl)) {}
Runtime::~Runtime() = default;

Result<std::unique_ptr<Runtime>> Runtime::create(const RuntimeConfig& config,
                                                 bootstrap::Bootstrap& boot) {
  if (config.eager_limit == 0 || config.eager_limit > kMaxEagerLimit)
    return Status{ErrorClass::arg, "eager limit " + std::to_string(config.eager_limit) +
                                       " is outside 1.." + std::to_string(kMaxEagerLimit)};
  if (boot.size() < 1 || boot.rank() < 0 || boot.rank() >= boot.size())
    return Status{ErrorClass::arg, "bootstrap reports rank " + std::to_string(boot.rank()) +
                                       " of " + std::to_string(boot.size())};
  auto transport = make_transport(config, boot);
  if (!transport) return transport.status();
  auto impl = std::make_unique<core::RuntimeImpl>(config, std::move(transport.value()));
  if (config.backend == "shm") impl->set_backend(shm::make_backend(*impl));
  if (config.backend == "fabric") impl->set_backend(fabric::make_backend(*impl));
  if (impl->backend()) RMA_TRY(check_backend(*impl->backend()));
  return std::unique_ptr<Runtime>(new Runtime(std::move(impl)));
}

int Runtime::rank() const { return impl_->rank(); }
int Runtime::size() const { return impl_->size(); }
const RuntimeConfig& Runtime::config() const { return impl_->config(); }
std::string Runtime::transport_name() const { return impl_->engine().transport().name(); }
std::size_t Runtime::eager_limit() const { return impl_->eager_limit(); }

Status Runtime::send(int dst, const void* buf, std::size_t bytes, int tag) {
  core::CallScope scope(impl_->calls(), "send", -1, dst);
  RMA_TRY(impl_->check_peer("send", dst, false));
  if (tag < 0) return {ErrorClass::arg, "send: tag " + std::to_string(tag) + " is negative"};
  if (!buf && bytes) return {ErrorClass::buffer, "send: null buffer"};
  std::unique_lock lk(impl_->engine().mutex());
  return impl_->p2p().send(lk, dst, buf, bytes, tag);
}

Status Runtime::recv(int src, void* buf, std::size_t bytes, int tag, std::size_t* received) {
  core::CallScope scope(impl_->calls(), "recv", -1, src);
  RMA_TRY(impl_->check_peer("recv", src, false));
  if (tag < 0) return {ErrorClass::arg, "recv: tag " + std::to_string(tag) + " is negative"};
  if (!buf && bytes) return {ErrorClass::buffer, "recv: null buffer"};
  std::unique_lock lk(impl_->engine().mutex());
  return impl_->p2p().recv(lk, src, buf, bytes, tag, received);
}

Status Runtime::barrier() {
  core::CallScope scope(impl_->calls(), "barrier");
  std::unique_lock lk(impl_->engine().mutex());
  return impl_->p2p().barrier(lk);
}

void Runtime::poke() {
  std::unique_lock lk(impl_->engine().mutex());
  impl_->engine().progress(core::Ctx::any_call);
}

Result<Window*> Runtime::create_window(const WindowConfig& config) {
  core::CallScope scope(impl_->calls(), "window");
  return impl_->create_window(config);
}

Result<void*> Runtime::alloc_mem(std::size_t bytes) {
  std::unique_lock lk(impl_->engine().mutex());
  return impl_->alloc_mem(bytes);
}

Status Runtime::free_mem(void* base) {
  std::unique_lock lk(impl_->engine().mutex());
  return impl_->free_mem(base);
}

Counters Runtime::counters() const { return impl_->engine().counters(); }

RankState Runtime::state() const {
  RankState s;
  s.rank = impl_->rank();
  s.call = impl_->calls().snapshot();
  s.windows = impl_->window_states();
  s.counters = impl_->engine().counters();
  return s;
}

}  // namespace rma
