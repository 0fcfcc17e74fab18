// The public Runtime's calls: point-to-point with their argument checks, windows, counters
// and state snapshots. (Creation, which picks the backend, is the registry's: registry/.)
#include "rma/runtime.hpp"

#include <algorithm>

#include "core/runtime_impl.hpp"

namespace rma {
namespace core {

RuntimeImpl::RuntimeImpl(const RuntimeConfig& config,
                         std::unique_ptr<progress::Transport> transport, const Protocol& protocol)
    : config_(config),
      engine_(std::move(transport), config.progress, calls_),
      eager_limit_(std::min(config.eager_limit, engine_.max_payload())),
      bulk_(&engine_),
      p2p_(engine_, bulk_, eager_limit_),
      protocol_(protocol) {
  engine_.on(PacketType::data, [this](int src, const progress::PacketHeader& h,
                                      std::span<const std::byte> p) { bulk_.handle(src, h, p); });
  for (int i = 0; i < packet_type_count; ++i) {
    const auto t = static_cast<PacketType>(i);
    if (class_of(t) == PacketClass::rma)
      engine_.on(t, [this](int src, const progress::PacketHeader& h, std::span<const std::byte> p) {
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

Runtime::Runtime(std::unique_ptr<core::RuntimeImpl> impl) : impl_(std::move(impl)) {}
Runtime::~Runtime() = default;

int Runtime::rank() const {
  return impl_->rank();
}
int Runtime::size() const {
  return impl_->size();
}
const RuntimeConfig& Runtime::config() const {
  return impl_->config();
}
std::string Runtime::transport_name() const {
  return impl_->engine().transport().name();
}
std::size_t Runtime::eager_limit() const {
  return impl_->eager_limit();
}

Status Runtime::send(int dst, const void* buf, std::size_t bytes, int tag) {
  progress::CallScope scope(impl_->calls(), "send", -1, dst);
  RMA_TRY(impl_->check_peer("send", dst, false));
  if (tag < 0) return {ErrorClass::arg, "send: tag " + std::to_string(tag) + " is negative"};
  if (!buf && bytes) return {ErrorClass::buffer, "send: null buffer"};
  std::unique_lock lk(impl_->engine().mutex());
  return impl_->p2p().send(lk, dst, buf, bytes, tag);
}

Status Runtime::recv(int src, void* buf, std::size_t bytes, int tag, std::size_t* received) {
  progress::CallScope scope(impl_->calls(), "recv", -1, src);
  RMA_TRY(impl_->check_peer("recv", src, false));
  if (tag < 0) return {ErrorClass::arg, "recv: tag " + std::to_string(tag) + " is negative"};
  if (!buf && bytes) return {ErrorClass::buffer, "recv: null buffer"};
  std::unique_lock lk(impl_->engine().mutex());
  return impl_->p2p().recv(lk, src, buf, bytes, tag, received);
}

Status Runtime::barrier() {
  progress::CallScope scope(impl_->calls(), "barrier");
  std::unique_lock lk(impl_->engine().mutex());
  return impl_->p2p().barrier(lk);
}

void Runtime::poke() {
  std::unique_lock lk(impl_->engine().mutex());
  impl_->engine().progress(progress::Ctx::any_call);
}

Result<Window*> Runtime::create_window(const WindowConfig& config) {
  progress::CallScope scope(impl_->calls(), "window");
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

Counters Runtime::counters() const {
  return impl_->engine().counters();
}

RankState Runtime::state() const {
  RankState s;
  s.rank = impl_->rank();
  s.call = impl_->calls().snapshot();
  s.windows = impl_->window_states();
  s.counters = impl_->engine().counters();
  return s;
}

}  // namespace rma
